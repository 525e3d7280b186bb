import { env } from "./env";

export default {
  providers: [{ domain: env.convexSiteUrl(), applicationID: "convex" }],
};
