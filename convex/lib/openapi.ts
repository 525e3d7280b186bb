// The OpenAPI 3.1 description of the HTTP API that /api/v1/openapi.json serves (core/httpApi.ts):
// every request and response, each operation with its operationId, checks typed kind by kind.
// convex/openapi.test.ts validates it with an OpenAPI validator and checks real responses
// against it.
import { API_TOKEN_LIMITS } from "./limits";
import { openApiPaths } from "./openapiPaths";
import { openApiSchemas } from "./openapiSchemas";

export function openApiDocument(serverUrl: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "ModelJury API",
      version: "1.0.0",
      description:
        "Create, price, start and read ModelJury tests from code. Authenticate with a personal access token " +
        "made under Account Settings → API tokens: `Authorization: Bearer mj_pat_…`. A token acts in one space " +
        "(personal or one team) with the user's role there; tests of other spaces are not found. " +
        `Each token may make ${API_TOKEN_LIMITS.requestsPerMinute} requests in any 60 seconds. ` +
        "Every error is JSON with a code, a message and `problems`, each naming a field by its path in the request.",
    },
    servers: [{ url: `${serverUrl}/api/v1` }],
    security: [{ bearer: [] }],
    paths: openApiPaths(),
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "A personal access token" } },
      schemas: openApiSchemas(),
    },
  };
}
