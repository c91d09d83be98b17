import { describeRouteFuzz } from "./route-fuzz";

describeRouteFuzz("sqlite");
