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
import type * as core_admin from "../core/admin.js";
import type * as core_apiKeyCrypto from "../core/apiKeyCrypto.js";
import type * as core_apiTokens from "../core/apiTokens.js";
import type * as core_authThrottle from "../core/authThrottle.js";
import type * as core_catalog from "../core/catalog.js";
import type * as core_checkout from "../core/checkout.js";
import type * as core_checks from "../core/checks.js";
import type * as core_counters from "../core/counters.js";
import type * as core_email from "../core/email.js";
import type * as core_gateway from "../core/gateway.js";
import type * as core_httpApi from "../core/httpApi.js";
import type * as core_jobs from "../core/jobs.js";
import type * as core_juryStats from "../core/juryStats.js";
import type * as core_juryView from "../core/juryView.js";
import type * as core_notes from "../core/notes.js";
import type * as core_paymentProvider from "../core/paymentProvider.js";
import type * as core_payments from "../core/payments.js";
import type * as core_pipeline_calls from "../core/pipeline/calls.js";
import type * as core_pipeline_claim from "../core/pipeline/claim.js";
import type * as core_pipeline_concurrency from "../core/pipeline/concurrency.js";
import type * as core_pipeline_dispatch from "../core/pipeline/dispatch.js";
import type * as core_pipeline_evaluations from "../core/pipeline/evaluations.js";
import type * as core_pipeline_finish from "../core/pipeline/finish.js";
import type * as core_pipeline_record from "../core/pipeline/record.js";
import type * as core_pipeline_recovery from "../core/pipeline/recovery.js";
import type * as core_pipeline_responses from "../core/pipeline/responses.js";
import type * as core_pipeline_runCounters from "../core/pipeline/runCounters.js";
import type * as core_pipeline_shards from "../core/pipeline/shards.js";
import type * as core_pipeline_statistics from "../core/pipeline/statistics.js";
import type * as core_pipeline_workItem from "../core/pipeline/workItem.js";
import type * as core_presence from "../core/presence.js";
import type * as core_results from "../core/results.js";
import type * as core_reviews from "../core/reviews.js";
import type * as core_savedAssets from "../core/savedAssets.js";
import type * as core_settings from "../core/settings.js";
import type * as core_sharedTest from "../core/sharedTest.js";
import type * as core_teamSpend from "../core/teamSpend.js";
import type * as core_teams from "../core/teams.js";
import type * as core_testAccess from "../core/testAccess.js";
import type * as core_testCreation from "../core/testCreation.js";
import type * as core_testDeletion from "../core/testDeletion.js";
import type * as core_testEnding from "../core/testEnding.js";
import type * as core_testGateway from "../core/testGateway.js";
import type * as core_testSummaries from "../core/testSummaries.js";
import type * as core_tests from "../core/tests.js";
import type * as core_userStats from "../core/userStats.js";
import type * as core_validation from "../core/validation.js";
import type * as crons from "../crons.js";
import type * as dashboard from "../dashboard.js";
import type * as env from "../env.js";
import type * as functions from "../functions.js";
import type * as history from "../history.js";
import type * as http from "../http.js";
import type * as lib_apiConfig from "../lib/apiConfig.js";
import type * as lib_boundedList from "../lib/boundedList.js";
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
import type * as tables_testSummaries from "../tables/testSummaries.js";
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
  "core/admin": typeof core_admin;
  "core/apiKeyCrypto": typeof core_apiKeyCrypto;
  "core/apiTokens": typeof core_apiTokens;
  "core/authThrottle": typeof core_authThrottle;
  "core/catalog": typeof core_catalog;
  "core/checkout": typeof core_checkout;
  "core/checks": typeof core_checks;
  "core/counters": typeof core_counters;
  "core/email": typeof core_email;
  "core/gateway": typeof core_gateway;
  "core/httpApi": typeof core_httpApi;
  "core/jobs": typeof core_jobs;
  "core/juryStats": typeof core_juryStats;
  "core/juryView": typeof core_juryView;
  "core/notes": typeof core_notes;
  "core/paymentProvider": typeof core_paymentProvider;
  "core/payments": typeof core_payments;
  "core/pipeline/calls": typeof core_pipeline_calls;
  "core/pipeline/claim": typeof core_pipeline_claim;
  "core/pipeline/concurrency": typeof core_pipeline_concurrency;
  "core/pipeline/dispatch": typeof core_pipeline_dispatch;
  "core/pipeline/evaluations": typeof core_pipeline_evaluations;
  "core/pipeline/finish": typeof core_pipeline_finish;
  "core/pipeline/record": typeof core_pipeline_record;
  "core/pipeline/recovery": typeof core_pipeline_recovery;
  "core/pipeline/responses": typeof core_pipeline_responses;
  "core/pipeline/runCounters": typeof core_pipeline_runCounters;
  "core/pipeline/shards": typeof core_pipeline_shards;
  "core/pipeline/statistics": typeof core_pipeline_statistics;
  "core/pipeline/workItem": typeof core_pipeline_workItem;
  "core/presence": typeof core_presence;
  "core/results": typeof core_results;
  "core/reviews": typeof core_reviews;
  "core/savedAssets": typeof core_savedAssets;
  "core/settings": typeof core_settings;
  "core/sharedTest": typeof core_sharedTest;
  "core/teamSpend": typeof core_teamSpend;
  "core/teams": typeof core_teams;
  "core/testAccess": typeof core_testAccess;
  "core/testCreation": typeof core_testCreation;
  "core/testDeletion": typeof core_testDeletion;
  "core/testEnding": typeof core_testEnding;
  "core/testGateway": typeof core_testGateway;
  "core/testSummaries": typeof core_testSummaries;
  "core/tests": typeof core_tests;
  "core/userStats": typeof core_userStats;
  "core/validation": typeof core_validation;
  crons: typeof crons;
  dashboard: typeof dashboard;
  env: typeof env;
  functions: typeof functions;
  history: typeof history;
  http: typeof http;
  "lib/apiConfig": typeof lib_apiConfig;
  "lib/boundedList": typeof lib_boundedList;
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
  "tables/testSummaries": typeof tables_testSummaries;
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
