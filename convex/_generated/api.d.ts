/* eslint-disable */
/**
 * Generated `api` utility.
 *
 * THIS CODE IS AUTOMATICALLY GENERATED.
 *
 * To regenerate, run `npx convex dev`.
 * @module
 */

import type {
  ApiFromModules,
  FilterApi,
  FunctionReference,
} from "convex/server";
import type * as admin from "../admin.js";
import type * as apiKeys from "../apiKeys.js";
import type * as apiTokens from "../apiTokens.js";
import type * as auth from "../auth.js";
import type * as billing from "../billing.js";
import type * as checks from "../checks.js";
import type * as contact from "../contact.js";
import type * as crons from "../crons.js";
import type * as dashboard from "../dashboard.js";
import type * as env from "../env.js";
import type * as functions from "../functions.js";
import type * as history from "../history.js";
import type * as http from "../http.js";
import type * as lib_apiConfig from "../lib/apiConfig.js";
import type * as lib_builtins from "../lib/builtins.js";
import type * as lib_checkFigures from "../lib/checkFigures.js";
import type * as lib_checks from "../lib/checks.js";
import type * as lib_concurrency from "../lib/concurrency.js";
import type * as lib_contact from "../lib/contact.js";
import type * as lib_credentials from "../lib/credentials.js";
import type * as lib_criteria from "../lib/criteria.js";
import type * as lib_errors from "../lib/errors.js";
import type * as lib_fields from "../lib/fields.js";
import type * as lib_format from "../lib/format.js";
import type * as lib_forms from "../lib/forms.js";
import type * as lib_initials from "../lib/initials.js";
import type * as lib_jobAnalysis from "../lib/jobAnalysis.js";
import type * as lib_limits from "../lib/limits.js";
import type * as lib_metrics from "../lib/metrics.js";
import type * as lib_openapi from "../lib/openapi.js";
import type * as lib_passwordStrength from "../lib/passwordStrength.js";
import type * as lib_presence from "../lib/presence.js";
import type * as lib_pricing from "../lib/pricing.js";
import type * as lib_progress from "../lib/progress.js";
import type * as lib_promptfoo from "../lib/promptfoo.js";
import type * as lib_prompts from "../lib/prompts.js";
import type * as lib_replies from "../lib/replies.js";
import type * as lib_reviews from "../lib/reviews.js";
import type * as lib_scoring from "../lib/scoring.js";
import type * as lib_shareId from "../lib/shareId.js";
import type * as lib_stats_agreement from "../lib/stats/agreement.js";
import type * as lib_stats_basics from "../lib/stats/basics.js";
import type * as lib_stats_bias from "../lib/stats/bias.js";
import type * as lib_stats_bradleyTerry from "../lib/stats/bradleyTerry.js";
import type * as lib_stats_breakdown from "../lib/stats/breakdown.js";
import type * as lib_stats_human from "../lib/stats/human.js";
import type * as lib_stats_index from "../lib/stats/index.js";
import type * as lib_stats_random from "../lib/stats/random.js";
import type * as lib_stats_ranks from "../lib/stats/ranks.js";
import type * as lib_teams from "../lib/teams.js";
import type * as lib_templateCategories from "../lib/templateCategories.js";
import type * as lib_templates from "../lib/templates.js";
import type * as lib_testStatus from "../lib/testStatus.js";
import type * as lib_text from "../lib/text.js";
import type * as lib_tiers from "../lib/tiers.js";
import type * as lib_types from "../lib/types.js";
import type * as model_admin from "../model/admin.js";
import type * as model_apiKeyCrypto from "../model/apiKeyCrypto.js";
import type * as model_apiTokens from "../model/apiTokens.js";
import type * as model_authThrottle from "../model/authThrottle.js";
import type * as model_catalog from "../model/catalog.js";
import type * as model_checkout from "../model/checkout.js";
import type * as model_checks from "../model/checks.js";
import type * as model_counters from "../model/counters.js";
import type * as model_email from "../model/email.js";
import type * as model_gateway from "../model/gateway.js";
import type * as model_httpApi from "../model/httpApi.js";
import type * as model_jobs from "../model/jobs.js";
import type * as model_juryStats from "../model/juryStats.js";
import type * as model_juryView from "../model/juryView.js";
import type * as model_notes from "../model/notes.js";
import type * as model_paymentProvider from "../model/paymentProvider.js";
import type * as model_payments from "../model/payments.js";
import type * as model_pipeline_calls from "../model/pipeline/calls.js";
import type * as model_pipeline_claim from "../model/pipeline/claim.js";
import type * as model_pipeline_concurrency from "../model/pipeline/concurrency.js";
import type * as model_pipeline_dispatch from "../model/pipeline/dispatch.js";
import type * as model_pipeline_evaluations from "../model/pipeline/evaluations.js";
import type * as model_pipeline_finish from "../model/pipeline/finish.js";
import type * as model_pipeline_record from "../model/pipeline/record.js";
import type * as model_pipeline_recovery from "../model/pipeline/recovery.js";
import type * as model_pipeline_responses from "../model/pipeline/responses.js";
import type * as model_pipeline_runCounters from "../model/pipeline/runCounters.js";
import type * as model_pipeline_shards from "../model/pipeline/shards.js";
import type * as model_pipeline_statistics from "../model/pipeline/statistics.js";
import type * as model_pipeline_workItem from "../model/pipeline/workItem.js";
import type * as model_presence from "../model/presence.js";
import type * as model_results from "../model/results.js";
import type * as model_reviews from "../model/reviews.js";
import type * as model_savedAssets from "../model/savedAssets.js";
import type * as model_settings from "../model/settings.js";
import type * as model_sharedTest from "../model/sharedTest.js";
import type * as model_teamSpend from "../model/teamSpend.js";
import type * as model_teams from "../model/teams.js";
import type * as model_testAccess from "../model/testAccess.js";
import type * as model_testCreation from "../model/testCreation.js";
import type * as model_testDeletion from "../model/testDeletion.js";
import type * as model_testEnding from "../model/testEnding.js";
import type * as model_testGateway from "../model/testGateway.js";
import type * as model_tests from "../model/tests.js";
import type * as model_userStats from "../model/userStats.js";
import type * as model_validation from "../model/validation.js";
import type * as models from "../models.js";
import type * as notes from "../notes.js";
import type * as payments from "../payments.js";
import type * as personas from "../personas.js";
import type * as presence from "../presence.js";
import type * as profile from "../profile.js";
import type * as publicApi from "../publicApi.js";
import type * as results from "../results.js";
import type * as reviews from "../reviews.js";
import type * as runner from "../runner.js";
import type * as shares from "../shares.js";
import type * as tables_apiTokens from "../tables/apiTokens.js";
import type * as tables_authThrottle from "../tables/authThrottle.js";
import type * as tables_checks from "../tables/checks.js";
import type * as tables_notes from "../tables/notes.js";
import type * as tables_presence from "../tables/presence.js";
import type * as tables_teams from "../tables/teams.js";
import type * as teams from "../teams.js";
import type * as templates from "../templates.js";
import type * as testDeletion from "../testDeletion.js";
import type * as tests from "../tests.js";
import type * as topics from "../topics.js";
import type * as users from "../users.js";
import type * as validators from "../validators.js";

/**
 * A utility for referencing Convex functions in your app's API.
 *
 * Usage:
 * ```js
 * const myFunctionReference = api.myModule.myFunction;
 * ```
 */
declare const fullApi: ApiFromModules<{
  admin: typeof admin;
  apiKeys: typeof apiKeys;
  apiTokens: typeof apiTokens;
  auth: typeof auth;
  billing: typeof billing;
  checks: typeof checks;
  contact: typeof contact;
  crons: typeof crons;
  dashboard: typeof dashboard;
  env: typeof env;
  functions: typeof functions;
  history: typeof history;
  http: typeof http;
  "lib/apiConfig": typeof lib_apiConfig;
  "lib/builtins": typeof lib_builtins;
  "lib/checkFigures": typeof lib_checkFigures;
  "lib/checks": typeof lib_checks;
  "lib/concurrency": typeof lib_concurrency;
  "lib/contact": typeof lib_contact;
  "lib/credentials": typeof lib_credentials;
  "lib/criteria": typeof lib_criteria;
  "lib/errors": typeof lib_errors;
  "lib/fields": typeof lib_fields;
  "lib/format": typeof lib_format;
  "lib/forms": typeof lib_forms;
  "lib/initials": typeof lib_initials;
  "lib/jobAnalysis": typeof lib_jobAnalysis;
  "lib/limits": typeof lib_limits;
  "lib/metrics": typeof lib_metrics;
  "lib/openapi": typeof lib_openapi;
  "lib/passwordStrength": typeof lib_passwordStrength;
  "lib/presence": typeof lib_presence;
  "lib/pricing": typeof lib_pricing;
  "lib/progress": typeof lib_progress;
  "lib/promptfoo": typeof lib_promptfoo;
  "lib/prompts": typeof lib_prompts;
  "lib/replies": typeof lib_replies;
  "lib/reviews": typeof lib_reviews;
  "lib/scoring": typeof lib_scoring;
  "lib/shareId": typeof lib_shareId;
  "lib/stats/agreement": typeof lib_stats_agreement;
  "lib/stats/basics": typeof lib_stats_basics;
  "lib/stats/bias": typeof lib_stats_bias;
  "lib/stats/bradleyTerry": typeof lib_stats_bradleyTerry;
  "lib/stats/breakdown": typeof lib_stats_breakdown;
  "lib/stats/human": typeof lib_stats_human;
  "lib/stats/index": typeof lib_stats_index;
  "lib/stats/random": typeof lib_stats_random;
  "lib/stats/ranks": typeof lib_stats_ranks;
  "lib/teams": typeof lib_teams;
  "lib/templateCategories": typeof lib_templateCategories;
  "lib/templates": typeof lib_templates;
  "lib/testStatus": typeof lib_testStatus;
  "lib/text": typeof lib_text;
  "lib/tiers": typeof lib_tiers;
  "lib/types": typeof lib_types;
  "model/admin": typeof model_admin;
  "model/apiKeyCrypto": typeof model_apiKeyCrypto;
  "model/apiTokens": typeof model_apiTokens;
  "model/authThrottle": typeof model_authThrottle;
  "model/catalog": typeof model_catalog;
  "model/checkout": typeof model_checkout;
  "model/checks": typeof model_checks;
  "model/counters": typeof model_counters;
  "model/email": typeof model_email;
  "model/gateway": typeof model_gateway;
  "model/httpApi": typeof model_httpApi;
  "model/jobs": typeof model_jobs;
  "model/juryStats": typeof model_juryStats;
  "model/juryView": typeof model_juryView;
  "model/notes": typeof model_notes;
  "model/paymentProvider": typeof model_paymentProvider;
  "model/payments": typeof model_payments;
  "model/pipeline/calls": typeof model_pipeline_calls;
  "model/pipeline/claim": typeof model_pipeline_claim;
  "model/pipeline/concurrency": typeof model_pipeline_concurrency;
  "model/pipeline/dispatch": typeof model_pipeline_dispatch;
  "model/pipeline/evaluations": typeof model_pipeline_evaluations;
  "model/pipeline/finish": typeof model_pipeline_finish;
  "model/pipeline/record": typeof model_pipeline_record;
  "model/pipeline/recovery": typeof model_pipeline_recovery;
  "model/pipeline/responses": typeof model_pipeline_responses;
  "model/pipeline/runCounters": typeof model_pipeline_runCounters;
  "model/pipeline/shards": typeof model_pipeline_shards;
  "model/pipeline/statistics": typeof model_pipeline_statistics;
  "model/pipeline/workItem": typeof model_pipeline_workItem;
  "model/presence": typeof model_presence;
  "model/results": typeof model_results;
  "model/reviews": typeof model_reviews;
  "model/savedAssets": typeof model_savedAssets;
  "model/settings": typeof model_settings;
  "model/sharedTest": typeof model_sharedTest;
  "model/teamSpend": typeof model_teamSpend;
  "model/teams": typeof model_teams;
  "model/testAccess": typeof model_testAccess;
  "model/testCreation": typeof model_testCreation;
  "model/testDeletion": typeof model_testDeletion;
  "model/testEnding": typeof model_testEnding;
  "model/testGateway": typeof model_testGateway;
  "model/tests": typeof model_tests;
  "model/userStats": typeof model_userStats;
  "model/validation": typeof model_validation;
  models: typeof models;
  notes: typeof notes;
  payments: typeof payments;
  personas: typeof personas;
  presence: typeof presence;
  profile: typeof profile;
  publicApi: typeof publicApi;
  results: typeof results;
  reviews: typeof reviews;
  runner: typeof runner;
  shares: typeof shares;
  "tables/apiTokens": typeof tables_apiTokens;
  "tables/authThrottle": typeof tables_authThrottle;
  "tables/checks": typeof tables_checks;
  "tables/notes": typeof tables_notes;
  "tables/presence": typeof tables_presence;
  "tables/teams": typeof tables_teams;
  teams: typeof teams;
  templates: typeof templates;
  testDeletion: typeof testDeletion;
  tests: typeof tests;
  topics: typeof topics;
  users: typeof users;
  validators: typeof validators;
}>;
export declare const api: FilterApi<
  typeof fullApi,
  FunctionReference<any, "public">
>;
export declare const internal: FilterApi<
  typeof fullApi,
  FunctionReference<any, "internal">
>;
