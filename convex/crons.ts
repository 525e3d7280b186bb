import { cronJobs } from "convex/server";

const crons = cronJobs();

export default crons;
