export { unfollowBodySchema } from "../follow/schema";
