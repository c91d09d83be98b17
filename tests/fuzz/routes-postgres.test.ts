import { describeRouteFuzz } from "./route-fuzz";

describeRouteFuzz("postgres");
