// The built-in templates and model bundles (spec part 1 §3, §9), shared by the setup page and
// the functions that apply them. Plain data: nothing here imports server code.
import { DEFAULT_RANKING_PROMPT } from "./prompts";
import type { TemplateCategory, TemplateComplexity } from "./templates";
import type { TemplateData } from "../validators";
import { criteriaSelection, DEFAULT_EVALUATION_CRITERIA, selectedCriteria, type EvaluationCriteria } from "./criteria";
import { DEFAULT_SCORING_PARAMETERS, type ScoringParameters } from "./types";

/**
 * Every model a built-in suggests. All exist in the dev gateway catalog and on OpenRouter, so a
 * template or bundle applied offline or in production selects real models.
 */
export const KNOWN_MODEL_IDS = [
  "openai/gpt-4o-mini",
  "openai/gpt-4o",
  "openai/gpt-4.1",
  "anthropic/claude-3.5-haiku",
  "anthropic/claude-sonnet-4",
  "anthropic/claude-opus-4",
  "google/gemini-2.0-flash-001",
  "google/gemini-2.5-pro",
  "meta-llama/llama-3.3-70b-instruct",
  "mistralai/mistral-small-3.1-24b-instruct",
  "mistralai/mistral-large",
  "deepseek/deepseek-chat",
  "qwen/qwen-2.5-72b-instruct",
  "x-ai/grok-3",
  "cohere/command-r-plus",
] as const;
export type KnownModelId = (typeof KNOWN_MODEL_IDS)[number];

export function isKnownModelId(id: string): id is KnownModelId {
  return (KNOWN_MODEL_IDS as readonly string[]).includes(id);
}

// ---------------------------------------------------------------------------------------------
// Templates
// ---------------------------------------------------------------------------------------------

export interface BuiltinPersona {
  readonly name: string;
  readonly description: string;
  readonly systemPrompt: string;
}

export interface BuiltinTopic {
  readonly title: string;
  readonly description: string;
  readonly prompt: string;
}

export interface BuiltinTemplate {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly category: TemplateCategory;
  /** A lucide-react icon name. */
  readonly icon: string;
  /** Appended to every topic's prompt (see combinePrompt). */
  readonly userPrompt: string;
  readonly personas: readonly BuiltinPersona[];
  readonly topics: readonly BuiltinTopic[];
  readonly evaluationConfig: {
    readonly rankingPrompt: string;
    readonly evaluationCriteria: EvaluationCriteria;
    readonly scoringParameters: ScoringParameters;
  };
  /** Generators and evaluators never overlap, so no model judges its own answers. */
  readonly suggestedModels: {
    readonly generators: readonly KnownModelId[];
    readonly evaluators: readonly KnownModelId[];
  };
  readonly pricing: {
    /** What the user pays with the suggested models at 1 to 3 responses per topic, e.g. "$2.00-6.00". */
    readonly estimatedCostRange: string;
    readonly complexity: TemplateComplexity;
  };
}

const MARKETING_COPY: BuiltinTemplate = {
  id: "marketing-copy",
  name: "Marketing Copy Optimization",
  description:
    "Compare how models write conversion-focused copy (landing-page heroes, launch emails and ad variants) " +
    "in distinct brand voices, judged on persuasion, faithfulness to the brief and fit with the voice.",
  category: "marketing",
  icon: "TrendingUp",
  userPrompt:
    "Write the requested marketing copy for the audience described. Use only the facts in the brief: do not " +
    "invent statistics, testimonials, awards or prices. Respect every length limit exactly, and put each " +
    "requested element under a clear label so the versions can be compared side by side.",
  personas: [
    {
      name: "Direct-Response Copywriter",
      description: "Conversion-focused writer who leads with the reader's problem and drives to one clear action.",
      systemPrompt:
        "You are a senior direct-response copywriter with fifteen years of experience writing landing pages, " +
        "emails and paid ads for B2B and consumer brands. You write for conversion: open with the reader's most " +
        "pressing problem, make one specific promise, support it with concrete proof from the brief, handle the " +
        "most likely objection, and close with a single unambiguous call to action. Prefer short sentences, " +
        "active verbs and the second person. Cut adjectives that carry no information. Never invent statistics, " +
        "testimonials, awards or prices; use only the facts the brief gives you.",
    },
    {
      name: "Brand Storyteller",
      description: "Warm, narrative voice that builds an emotional connection before making the pitch.",
      systemPrompt:
        "You are the brand storyteller for a consumer company known for its warm, human voice. You build an " +
        "emotional connection before you sell: open with a relatable moment or a small scene, show the change " +
        "the product brings to someone's day, and let the benefits emerge from the story rather than from a " +
        "feature list. Your language is vivid but plain, with no clichés such as 'game-changer', " +
        "'revolutionary' or 'unlock your potential'. Keep the call to action gentle and inviting, and stay " +
        "strictly within the facts of the brief.",
    },
    {
      name: "B2B Product Marketer",
      description: "Credible, precise voice for technical buyers and budget holders.",
      systemPrompt:
        "You are a product marketing manager at a B2B software company selling to operations and IT leaders. " +
        "Your readers are sceptical, busy and accountable for budgets. Lead with the business outcome (time " +
        "saved, risk reduced, cost avoided), translate each feature into what it means for the buyer's team, " +
        "and anticipate the questions a procurement or security reviewer would ask. Your tone is confident and " +
        "specific, never hyped. Use numbers only when the brief supplies them. Make the copy easy to skim: a " +
        "clear headline, short paragraphs and bullet points where they help.",
    },
  ],
  topics: [
    {
      title: "SaaS landing page hero",
      description: "Headline, subheadline, benefit bullets and call to action for a clinic scheduling tool.",
      prompt:
        "Write the hero section of the landing page for Slotwise, a scheduling tool for clinics with 2 to 20 " +
        "practitioners. Facts: patients book online 24/7; automatic SMS and email appointment reminders " +
        "(clinics using reminders typically see fewer no-shows, but do not quote a number); two-way sync with " +
        "Google Calendar and Outlook; 14-day free trial, no credit card required; pricing starts at $29 per " +
        "practitioner per month. Deliver: a headline (at most 10 words), a subheadline (at most 25 words), " +
        "three short benefit bullets, and the text of the primary call-to-action button.",
    },
    {
      title: "Feature launch email",
      description: "Announcement email to existing customers of an invoicing app about a new feature.",
      prompt:
        "Write a launch email to existing customers of Ledgerly, an invoicing app for freelancers, announcing " +
        "Recurring Invoices. Facts: an invoice can repeat weekly, monthly or quarterly; the client gets an " +
        "automatic reminder three days before the due date; one click pauses or cancels a series; available " +
        "today on the Pro plan at no extra cost; Basic-plan users can try it free for 30 days. Deliver: three " +
        "subject-line options (each under 50 characters), one preview-text line, and an email body of 120 to " +
        "180 words that ends with a single call to action.",
    },
    {
      title: "Paid social ad variants",
      description: "Three ad variants with different angles for an A/B test of a commuter backpack.",
      prompt:
        "Write three variants of a paid social ad (Facebook and Instagram feed) for Northline, a waterproof " +
        "commuter backpack. Facts: fully waterproof roll-top main compartment; padded sleeve for laptops up to " +
        "16 inches; reflective strips for visibility at night; 22-litre capacity; lifetime repair guarantee; " +
        "price $149. Each variant takes a different angle: (1) protection from the weather, (2) safety on dark " +
        "commutes, (3) buy-once durability. For each variant give the primary text (at most 125 characters), a " +
        "headline (at most 40 characters) and a call-to-action button label, and name its angle.",
    },
  ],
  evaluationConfig: {
    rankingPrompt:
      "Rank the responses from most to least effective as marketing copy. Judge, in this order: (1) fidelity " +
      "to the brief: every claim is supported by the facts given and nothing is invented; (2) persuasive " +
      "power: a clear, specific promise, benefits rather than features, and one compelling call to action; " +
      "(3) fit with the persona's voice and the target audience; (4) compliance with the requested elements " +
      "and length limits. Penalise clichés, vague superlatives and copy that could describe any product.",
    evaluationCriteria: criteriaSelection(["accuracy", "creativity", "relevance", "style"]),
    scoringParameters: { scale: "ranking", includeExplanations: true },
  },
  suggestedModels: {
    generators: [
      "openai/gpt-4o",
      "anthropic/claude-sonnet-4",
      "google/gemini-2.0-flash-001",
      "meta-llama/llama-3.3-70b-instruct",
    ],
    evaluators: ["openai/gpt-4.1", "google/gemini-2.5-pro"],
  },
  pricing: { estimatedCostRange: "$2.00-3.00", complexity: "medium" },
};

const TECHNICAL_DOCUMENTATION: BuiltinTemplate = {
  id: "technical-documentation",
  name: "Technical Documentation",
  description:
    "Evaluate how models write API references, setup guides and conceptual explanations for developers, " +
    "rated for technical accuracy, completeness and clarity.",
  category: "technical",
  icon: "FileText",
  userPrompt:
    "Write the documentation described above for its intended readers. Be technically accurate and complete: " +
    "document only the behaviour stated in the brief, and say explicitly when something is not specified " +
    "rather than inventing it. Use Markdown with headings, code blocks for every command and code sample, and " +
    "tables where they make the content easier to scan.",
  personas: [
    {
      name: "Senior Technical Writer",
      description: "Docs-as-code specialist who writes task-oriented, scannable documentation.",
      systemPrompt:
        "You are a senior technical writer who maintains the developer documentation of a widely used API " +
        "platform. You write task-oriented documentation: state what the reader will accomplish and the " +
        "prerequisites, then give numbered steps, each with one action and its expected result. Use the second " +
        "person and the present tense. Format code, commands, file names and identifiers as code, and make " +
        "every code sample complete and runnable as shown. Define each term the first time you use it. Call out " +
        "warnings and irreversible actions explicitly. Never document behaviour you are not sure of; if the " +
        "brief leaves something unspecified, say so rather than guessing.",
    },
    {
      name: "Staff Engineer",
      description: "Experienced engineer writing for peers: precise, dense and explicit about edge cases.",
      systemPrompt:
        "You are a staff software engineer writing internal documentation for other experienced engineers. Be " +
        "precise and economical: skip introductions and marketing language, lead with the contract (inputs, " +
        "outputs, errors and guarantees), and be explicit about edge cases, failure modes, limits, concurrency " +
        "and performance. Prefer tables for parameters and error codes. State the trade-offs of each design " +
        "choice. Never hand-wave: if a behaviour depends on configuration, name the setting that controls it.",
    },
    {
      name: "Developer Educator",
      description: "Patient teacher who explains concepts to newcomers with worked examples.",
      systemPrompt:
        "You are a developer educator who writes getting-started guides and tutorials for developers new to a " +
        "technology. Explain the why before the how, introduce one concept at a time, and build each example " +
        "on the previous one. Use a short, concrete analogy when a concept is abstract, but never at the cost " +
        "of accuracy. Anticipate the mistakes beginners make and show how to recognise and fix them. End with a " +
        "brief recap and a suggested next step. Keep the tone encouraging, and explain any jargon you use.",
    },
  ],
  topics: [
    {
      title: "REST endpoint reference",
      description: "Reference page for a paginated, filterable list endpoint, including its errors.",
      prompt:
        "Write the reference documentation for this endpoint. GET /v1/invoices lists the authenticated " +
        "account's invoices, newest first. Query parameters: status (optional; one of draft, open, paid, void), " +
        "customer_id (optional string), limit (optional integer from 1 to 100, default 20), starting_after " +
        "(optional invoice id, for cursor pagination). Authentication: an API key sent as a Bearer token in the " +
        "Authorization header. Response 200: a JSON object {data: Invoice[], has_more: boolean}. Errors: 400 " +
        "for an invalid parameter (the body names the parameter), 401 for a missing or invalid key, 429 when " +
        "rate limited (with a Retry-After header in seconds). Include a description, a parameter table, an " +
        "example request with curl, an example response, an error table, and a short section on paging " +
        "through all results.",
    },
    {
      title: "Local development setup guide",
      description: "Step-by-step guide to running a web service locally with Docker Compose.",
      prompt:
        "Write a setup guide for running the 'orders' service locally. Facts: the repository contains " +
        "docker-compose.yml with three services (api on port 8080, PostgreSQL 16 on port 5432, Redis 7 on port " +
        "6379); it requires Docker Desktop 4.x or Docker Engine with the Compose plugin; copy .env.example to " +
        ".env before starting; start everything with `docker compose up -d`, then apply the database migrations " +
        "with `docker compose exec api npm run migrate`; the health check GET http://localhost:8080/healthz " +
        'returns {"status":"ok"}; load demo data with `docker compose exec api npm run seed`. A common problem ' +
        "is port 5432 already being used by a locally installed PostgreSQL. Cover prerequisites, steps with " +
        "their expected results, verification, troubleshooting, and how to stop and reset the environment.",
    },
    {
      title: "Explaining idempotency keys",
      description: "Conceptual guide to safe retries in a payments API.",
      prompt:
        "Write a conceptual guide to idempotency keys in a payments API. Facts: clients send an " +
        "Idempotency-Key header (any unique string; a UUID v4 is recommended) on POST requests; the server " +
        "stores the first response for a key for 24 hours and returns it for any retry with the same key and " +
        "the same request body; a retry with the same key but a different body is rejected with status 422; " +
        "keys are scoped to the API key that sent them. Explain why retrying without idempotency can charge a " +
        "customer twice, how the mechanism prevents it, and when to generate a new key versus reuse one. " +
        "Include a short example of a retry loop in JavaScript or Python.",
    },
  ],
  evaluationConfig: {
    rankingPrompt:
      "Rank the responses from best to worst as technical documentation. Judge first on technical accuracy: " +
      "every statement agrees with the brief, code samples are correct and runnable, and nothing is invented. " +
      "Then on completeness: every requested section is present, and edge cases and errors are covered. Then " +
      "on clarity and structure: a reader can find what they need and follow the steps without guessing. " +
      "Penalise filler, missing prerequisites and examples that would fail if copied.",
    evaluationCriteria: criteriaSelection(["accuracy", "clarity", "relevance"]),
    scoringParameters: { scale: "rating", includeExplanations: true },
  },
  suggestedModels: {
    generators: ["openai/gpt-4.1", "anthropic/claude-sonnet-4", "google/gemini-2.5-pro", "deepseek/deepseek-chat"],
    evaluators: ["openai/gpt-4o", "mistralai/mistral-large"],
  },
  pricing: { estimatedCostRange: "$2.00-6.00", complexity: "high" },
};

const CUSTOMER_SERVICE: BuiltinTemplate = {
  id: "customer-service",
  name: "Customer Service Quality",
  description:
    "Test how models handle real support conversations (complaints, refund requests, troubleshooting and " +
    "cancellations), judged on policy accuracy, resolution, empathy and clarity.",
  category: "customer-service",
  icon: "MessageCircle",
  userPrompt:
    "Write the reply exactly as it would be sent to the customer. Follow the policy in the brief precisely: do " +
    "not offer anything it does not allow, and do not invent order details, dates or names. Resolve the issue " +
    "in this reply where you can, and make the next steps and their timing unmistakable.",
  personas: [
    {
      name: "Empathetic Support Specialist",
      description: "Front-line agent who leads with empathy and takes ownership of the problem.",
      systemPrompt:
        "You are a customer support specialist for an online retailer. Acknowledge the customer's situation " +
        "and feelings in one sincere sentence, never with scripted phrases such as 'we apologise for any " +
        "inconvenience'. Take ownership: say what you will do rather than what the customer must do, wherever " +
        "possible. Apply the policy in the brief exactly; never promise refunds, credits or timelines it does " +
        "not allow. Explain the next steps in plain language with clear timeframes. Keep replies under 200 " +
        "words and sign off with a first name only.",
    },
    {
      name: "Technical Support Engineer",
      description: "Second-line troubleshooter who diagnoses systematically and explains clearly.",
      systemPrompt:
        "You are a second-line technical support engineer for a SaaS product. Customers who reach you have " +
        "usually tried the basics and are frustrated. Confirm the problem in one sentence, then work " +
        "methodically: ask only the questions you need, give numbered steps in order of likelihood, and say " +
        "what the customer should see after each step. Avoid jargon, or explain it immediately. If the issue " +
        "needs escalation, say so, and explain what happens next and when the customer will hear back. Never " +
        "blame the customer.",
    },
    {
      name: "Retention Specialist",
      description: "Account specialist who handles cancellations and billing questions with tact and transparency.",
      systemPrompt:
        "You are an account specialist who handles cancellation requests and billing questions for a " +
        "subscription service. Respect the customer's decision: never make cancelling difficult and never " +
        "guilt the customer. Understand the reason, fix the underlying problem if one can be fixed, and offer " +
        "at most one relevant alternative the policy allows, such as a pause or a cheaper plan. If the customer " +
        "still wants to cancel, confirm clearly what happens to their access, data and billing. Be warm, " +
        "concise and transparent.",
    },
  ],
  topics: [
    {
      title: "Late delivery complaint",
      description: "An upset customer whose express-shipped birthday gift has not arrived.",
      prompt:
        "Customer message: \"My order #48213 was supposed to arrive on Friday for my daughter's birthday. It's " +
        "Monday and it still hasn't shown up. Tracking has said 'in transit' for four days. This is " +
        'ridiculous, I paid for express shipping." Policy: the express shipping fee ($12.95) is refunded when ' +
        "an express delivery arrives late; a carrier trace can be opened once tracking has not updated for 3 " +
        "days; if the trace cannot locate the parcel within 2 business days, we reship at no cost or issue a " +
        "full refund, whichever the customer prefers. Write the reply to the customer.",
    },
    {
      title: "Refund outside the return window",
      description: "A request the return policy does not cover, needing a tactful no and a real alternative.",
      prompt:
        'Customer message: "I bought the Aero blender 45 days ago and the motor has started making a grinding ' +
        "noise. I'd like a refund.\" Policy: returns for a refund are accepted within 30 days of delivery; the " +
        "Aero blender has a 2-year manufacturer warranty covering motor defects, under which we arrange a free " +
        "replacement: the customer completes a short online form and receives a prepaid shipping label by " +
        "email within 1 business day. Write the reply to the customer.",
    },
    {
      title: "Login failure after password reset",
      description: "Troubleshooting a locked-out user of a web app under time pressure.",
      prompt:
        "Customer message: \"I reset my password twice today and I still can't log in. It keeps saying " +
        "'invalid credentials'. I have a client presentation in an hour and all my files are in your app!\" " +
        "Known facts: after 5 failed attempts an account is locked for 15 minutes, and the message stays " +
        "'invalid credentials' during the lock; password managers often autofill the old password; a reset " +
        "link expires after 30 minutes and only the most recent link works; support can lift a lock " +
        "immediately once the customer confirms the account's email address. Write the reply to the customer.",
    },
    {
      title: "Subscription cancellation request",
      description: "A customer who wants to cancel because the plan costs too much for their usage.",
      prompt:
        'Customer message: "Please cancel my subscription. It\'s just too expensive for how often I use it." ' +
        "Account: Premium plan at $24 per month, renewing on the 14th; the customer uses the product about " +
        "twice a month. Policy: customers can cancel at any time and keep access until the end of the paid " +
        "period; the Basic plan costs $8 per month and includes every feature this customer has used in the " +
        "last 90 days; a subscription can be paused for up to 3 months at no charge; account data is kept for " +
        "60 days after cancellation. Write the reply to the customer.",
    },
  ],
  evaluationConfig: {
    rankingPrompt:
      "Rank the replies from best to worst as customer service. Judge, in this order: (1) policy accuracy: " +
      "offers and timelines match the stated policy exactly, and nothing is promised that it does not allow; " +
      "(2) resolution: the reply solves the problem or sets out concrete next steps with timeframes, without " +
      "needless back-and-forth; (3) empathy and tone: sincere acknowledgement, ownership, no blame and no " +
      "scripted filler; (4) clarity and length: easy to act on and no longer than necessary. A reply that " +
      "misstates the policy ranks below every reply that states it correctly.",
    evaluationCriteria: criteriaSelection(["accuracy", "clarity", "relevance", "style"]),
    scoringParameters: { scale: "ranking", includeExplanations: true },
  },
  suggestedModels: {
    generators: [
      "openai/gpt-4o-mini",
      "anthropic/claude-3.5-haiku",
      "google/gemini-2.0-flash-001",
      "mistralai/mistral-small-3.1-24b-instruct",
    ],
    evaluators: ["openai/gpt-4o", "anthropic/claude-sonnet-4"],
  },
  pricing: { estimatedCostRange: "$2.00-3.00", complexity: "medium" },
};

const CODE_GENERATION: BuiltinTemplate = {
  id: "code-generation",
  name: "Code Generation Specialization",
  description:
    "Benchmark models on realistic programming tasks (implementing a component with tests, fixing a " +
    "concurrency bug, refactoring for security), rated for correctness, code quality and explanation.",
  category: "technical",
  icon: "Code",
  userPrompt:
    "Solve the programming task above. Give the complete code in fenced code blocks that name the language, so " +
    "it can be copied and run as is. Stay within the stated language, version and library constraints, handle " +
    "edge cases and invalid input, and follow the code with a concise explanation of your approach.",
  personas: [
    {
      name: "Senior Software Engineer",
      description: "Writes production-ready, idiomatic code with careful error handling.",
      systemPrompt:
        "You are a senior software engineer writing production code that colleagues will review and maintain. " +
        "Write correct, idiomatic code for the requested language and version, with clear names, small " +
        "functions and explicit handling of invalid input and edge cases. Do not use libraries the task does " +
        "not allow. After the code, briefly explain the key design decisions and, where relevant, the time and " +
        "space complexity. If the task is ambiguous, state the assumption you made in one line rather than " +
        "asking a question.",
    },
    {
      name: "Security-Focused Engineer",
      description: "Application security engineer who writes and reviews code defensively.",
      systemPrompt:
        "You are an application security engineer. Whatever you write or review, you look first for " +
        "injection, missing input validation, unsafe deserialisation, secrets in code, broken authorisation, " +
        "race conditions and resource exhaustion. Write code that validates input at trust boundaries, uses " +
        "parameterised queries and safe APIs, and fails closed. When you fix or review code, name each " +
        "vulnerability, explain in one or two sentences how it could be exploited, and show the corrected code.",
    },
    {
      name: "Pragmatic Mentor",
      description: "Explains the solution step by step for a mid-level developer.",
      systemPrompt:
        "You are a pragmatic engineering mentor pairing with a mid-level developer. Solve the task with " +
        "straightforward, readable code, preferring clarity over cleverness. Describe the approach in a few " +
        "sentences before the code, comment only where the intent is not obvious, and after the code point " +
        "out one common pitfall and how the solution avoids it. Keep the explanation short enough to read in " +
        "two minutes.",
    },
  ],
  topics: [
    {
      title: "Implement a rate limiter",
      description: "A token-bucket rate limiter in TypeScript, with unit tests.",
      prompt:
        "Implement a token-bucket rate limiter in TypeScript for Node.js 20, without external libraries. API: " +
        "`class RateLimiter { constructor(capacity: number, refillPerSecond: number, now?: () => number); " +
        "tryRemove(key: string, tokens?: number): boolean }`. Each key has its own bucket, which starts full; " +
        "tokens refill continuously at refillPerSecond up to capacity; tryRemove (default 1 token) returns true " +
        "and deducts the tokens if enough are available, otherwise returns false and deducts nothing. The " +
        "optional `now` returns milliseconds so that tests can control time. Reject invalid arguments " +
        "(non-positive capacity, refill rate or token count) with a RangeError. Include Vitest unit tests " +
        "covering refill over time, independent keys and invalid input.",
    },
    {
      title: "Fix a concurrency bug",
      description: "Find and fix a race condition in asynchronous Python code.",
      prompt:
        "This Python 3.11 function is meant to fetch each URL at most once, even when called concurrently, but " +
        "under load it sometimes fetches the same URL several times:\n\n" +
        "```python\n" +
        "_cache: dict[str, bytes] = {}\n\n" +
        "async def fetch_once(session, url: str) -> bytes:\n" +
        "    if url in _cache:\n" +
        "        return _cache[url]\n" +
        "    response = await session.get(url)\n" +
        "    body = await response.read()\n" +
        "    _cache[url] = body\n" +
        "    return body\n" +
        "```\n\n" +
        "Explain the cause of the bug, then give a corrected version that guarantees a single in-flight " +
        "request per URL, shares its result with every concurrent caller, and does not cache failures: a later " +
        "call must retry after an exception.",
    },
    {
      title: "Refactor SQL access for safety",
      description: "Remove a SQL injection and tidy up a Node.js data-access function.",
      prompt:
        "Refactor this Node.js function, which uses the `pg` library, so that it is safe from SQL injection, " +
        "handles errors properly and is easier to test:\n\n" +
        "```js\n" +
        "async function searchUsers(db, name, sortBy) {\n" +
        '  const sql = "SELECT id, name, email FROM users WHERE name LIKE \'%" + name + "%\' ORDER BY " + sortBy;\n' +
        "  const result = await db.query(sql);\n" +
        "  return result.rows;\n" +
        "}\n" +
        "```\n\n" +
        "sortBy may only be name, email or created_at; reject anything else. Return at most 50 rows. Explain " +
        "each change briefly.",
    },
  ],
  evaluationConfig: {
    rankingPrompt:
      "Rank the responses from best to worst as solutions to the programming task. Judge first on " +
      "correctness: would the code compile or run and behave exactly as the task requires, including edge " +
      "cases, errors and concurrency? Then on code quality: idiomatic, readable, secure, maintainable and " +
      "within the stated constraints. Then on the explanation: accurate, concise and useful. A solution with a " +
      "correctness bug ranks below every correct solution, however elegant. Do not reward length or features " +
      "the task did not ask for.",
    evaluationCriteria: criteriaSelection(["accuracy", "clarity", "relevance"]),
    scoringParameters: { scale: "rating", includeExplanations: true },
  },
  suggestedModels: {
    generators: ["anthropic/claude-sonnet-4", "openai/gpt-4.1", "deepseek/deepseek-chat", "qwen/qwen-2.5-72b-instruct"],
    evaluators: ["openai/gpt-4o", "google/gemini-2.5-pro"],
  },
  pricing: { estimatedCostRange: "$2.00-6.00", complexity: "high" },
};

const CONTENT_SEO: BuiltinTemplate = {
  id: "content-seo",
  name: "Content Creation & SEO",
  description:
    "Compare models on search-optimised long-form content (how-to posts, comparison articles and writer " +
    "briefs), judged on search intent, substance, structure, readability and voice.",
  category: "content",
  icon: "PenTool",
  userPrompt:
    "Create the content described above for the stated audience and keyword. Satisfy the search intent fully, " +
    "use the keyword naturally, structure the piece with Markdown headings and respect every length limit. " +
    "Use only facts you are confident are true or that the brief supplies; do not invent statistics, studies, " +
    "quotes or sources.",
  personas: [
    {
      name: "SEO Content Strategist",
      description: "Plans and writes content around search intent, keywords and structure.",
      systemPrompt:
        "You are an SEO content strategist. You write for people first and search engines second: identify " +
        "the intent behind the target keyword and satisfy it fully and early. Use the primary keyword " +
        "naturally in the title, in the first 100 words and in at least one subheading, with related terms " +
        "where they fit, and never stuff keywords. Structure the content with a descriptive H1, logical H2 " +
        "and H3 headings, short paragraphs and lists where they help. Suggest anchor text for internal links " +
        "in square brackets where relevant. Do not invent statistics or cite studies the brief does not give.",
    },
    {
      name: "Feature Journalist",
      description: "Experienced journalist who writes authoritative, engaging long-form pieces.",
      systemPrompt:
        "You are a journalist who writes in-depth explanatory features for a respected publication. Open with " +
        "a hook that earns attention (a concrete situation, a surprising fact from the brief or a sharp " +
        "question), then deliver substance: explain the why, give practical examples, and acknowledge " +
        "trade-offs and exceptions. Your prose is lively, varied and precise, with no filler, no clichés and no " +
        "generic advice that could appear in any article. Attribute every claim that is not common knowledge, " +
        "and never fabricate sources or quotes.",
    },
    {
      name: "Conversion Content Editor",
      description: "Turns genuinely useful content into leads without losing the reader's trust.",
      systemPrompt:
        "You are a content editor at a company whose blog must generate leads while staying genuinely useful. " +
        "Deliver real value first; mention the company's product only where it naturally solves a problem " +
        "under discussion, at most twice, and never disparage competitors. Finish with a clear, relevant call " +
        "to action. Write at about an eighth-grade reading level: short sentences, common words and the active " +
        "voice. Make the piece easy to scan, with descriptive subheadings, bullet lists and a two-sentence " +
        "summary at the top for readers in a hurry.",
    },
  ],
  topics: [
    {
      title: "How-to blog post",
      description: "A practical beginner's guide targeting an informational keyword.",
      prompt:
        'Write a blog post of 700 to 900 words targeting the keyword "how to start composting at home". ' +
        "Audience: beginners with small urban or suburban gardens. Cover what can and cannot be composted " +
        "(greens and browns), choosing between an open bin, a tumbler and a worm bin, a step-by-step start, " +
        "and fixes for the three most common problems (a bad smell, pests, and a pile that will not heat up). " +
        "The publisher, GreenPatch, sells a 150-litre compost tumbler; mention it at most once, where relevant. " +
        "Put an SEO title (at most 60 characters) and a meta description (at most 155 characters) above the " +
        "article.",
    },
    {
      title: "Comparison article",
      description: "An even-handed comparison for a commercial-investigation keyword.",
      prompt:
        'Write an article of 800 to 1,000 words targeting "project management software for small teams". ' +
        "Compare three approaches rather than named vendors: spreadsheet-based tracking, lightweight kanban " +
        "boards and full project management suites. For each, give who it suits, its strengths, its " +
        "limitations and the signs a team has outgrown it, then end with a decision checklist. Audience: " +
        "owners and team leads of businesses with 5 to 25 employees. Include an SEO title (at most 60 " +
        "characters), a meta description (at most 155 characters) and an FAQ section answering three questions " +
        "a searcher would also ask.",
    },
    {
      title: "Content brief for a freelance writer",
      description: "An SEO content brief a freelance writer could execute without further questions.",
      prompt:
        'Create a content brief for a freelance writer for an article targeting "remote onboarding checklist" ' +
        "on the blog of an HR software company. Audience: HR managers at companies of 50 to 500 employees who " +
        "hire remotely. Include the search intent and the reader's job to be done; a working title and two " +
        "alternatives; a recommended word count with the reason; an H2 and H3 outline with the points each " +
        "section must make; related terms and questions to cover; the angle that will set the article apart " +
        "from generic checklists; and the call to action.",
    },
  ],
  evaluationConfig: {
    rankingPrompt:
      "Rank the responses from best to worst as search-optimised content. Judge on: (1) search intent: does it " +
      "answer what the searcher actually wants, early and completely? (2) substance and originality: " +
      "specific, accurate and practical insight rather than generic filler, with no invented statistics or " +
      "sources; (3) structure and readability: logical headings, scannable formatting and a suitable reading " +
      "level; (4) on-page SEO: natural keyword use, with the title and meta description within their limits; " +
      "(5) fit with the persona's voice. Penalise keyword stuffing and content that could have been written " +
      "without reading the brief.",
    evaluationCriteria: criteriaSelection(["accuracy", "creativity", "clarity", "relevance", "style"]),
    scoringParameters: { scale: "ranking", includeExplanations: true },
  },
  suggestedModels: {
    generators: [
      "openai/gpt-4o",
      "anthropic/claude-sonnet-4",
      "google/gemini-2.0-flash-001",
      "mistralai/mistral-large",
    ],
    evaluators: ["openai/gpt-4.1", "google/gemini-2.5-pro"],
  },
  pricing: { estimatedCostRange: "$2.00-4.00", complexity: "medium" },
};

/** A deliberately small starting point: users replace the persona and topic with their own. */
const CUSTOM_EVALUATION: BuiltinTemplate = {
  id: "custom-evaluation",
  name: "Custom Evaluation Setup",
  description:
    "A minimal starting point for your own evaluation: one general-purpose persona and one sample topic to " +
    "replace with your use case, affordable models and the default ranking prompt.",
  category: "general",
  icon: "Settings",
  userPrompt: "Respond to the task above with a clear, well-organised answer of no more than 300 words.",
  personas: [
    {
      name: "Helpful Assistant",
      description: "A knowledgeable, neutral assistant. Replace it with the voice you want to test.",
      systemPrompt:
        "You are a knowledgeable, helpful assistant. Answer accurately and directly, structure longer answers " +
        "so they are easy to scan, and say plainly when you are unsure or when the answer depends on " +
        "information you do not have.",
    },
  ],
  topics: [
    {
      title: "Explain a technical concept",
      description: "A sample task. Replace it with a scenario from your own use case.",
      prompt:
        "Explain the difference between latency and throughput to a product manager who is not an engineer, " +
        "using one everyday analogy and one example from a web application.",
    },
  ],
  evaluationConfig: {
    rankingPrompt: DEFAULT_RANKING_PROMPT,
    evaluationCriteria: DEFAULT_EVALUATION_CRITERIA,
    scoringParameters: DEFAULT_SCORING_PARAMETERS,
  },
  suggestedModels: {
    generators: ["openai/gpt-4o-mini", "anthropic/claude-3.5-haiku", "google/gemini-2.0-flash-001"],
    evaluators: ["openai/gpt-4o", "meta-llama/llama-3.3-70b-instruct"],
  },
  pricing: { estimatedCostRange: "$2.00-3.00", complexity: "low" },
};

/** In the order the template picker shows them. */
export const BUILTIN_TEMPLATES: readonly BuiltinTemplate[] = [
  MARKETING_COPY,
  TECHNICAL_DOCUMENTATION,
  CUSTOMER_SERVICE,
  CODE_GENERATION,
  CONTENT_SEO,
  CUSTOM_EVALUATION,
];

export function builtinTemplateById(id: string): BuiltinTemplate | undefined {
  return BUILTIN_TEMPLATES.find((template) => template.id === id);
}

/** A fresh copy of the fields a user template stores as templateData (no extra fields). */
export function templateDataOf(builtin: BuiltinTemplate): TemplateData {
  const { evaluationCriteria, scoringParameters, rankingPrompt } = builtin.evaluationConfig;
  return {
    userPrompt: builtin.userPrompt,
    personas: builtin.personas.map(({ name, description, systemPrompt }) => ({ name, description, systemPrompt })),
    topics: builtin.topics.map(({ title, description, prompt }) => ({ title, description, prompt })),
    evaluationConfig: {
      rankingPrompt,
      evaluationCriteria: criteriaSelection(selectedCriteria(evaluationCriteria)),
      scoringParameters: {
        scale: scoringParameters.scale,
        includeExplanations: scoringParameters.includeExplanations,
      },
    },
    suggestedModels: {
      generators: [...builtin.suggestedModels.generators],
      evaluators: [...builtin.suggestedModels.evaluators],
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Model bundles
// ---------------------------------------------------------------------------------------------

export const BUNDLE_CATEGORIES = ["budget", "standard", "premium", "enterprise"] as const;
export type BundleCategory = (typeof BUNDLE_CATEGORIES)[number];

export const BUNDLE_CATEGORY_LABELS: Readonly<Record<BundleCategory, string>> = {
  budget: "Budget",
  standard: "Standard",
  premium: "Premium",
  enterprise: "Enterprise",
};

/** Spec part 1 §9. */
export const BUNDLE_COST_RANGES: Readonly<Record<BundleCategory, string>> = {
  budget: "$0.50-2.00",
  standard: "$2.00-8.00",
  premium: "$8.00-25.00",
  enterprise: "$25.00+",
};

export interface ModelBundle {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly category: BundleCategory;
  /** The tier label, e.g. "Budget". */
  readonly priceRange: string;
  /** Never overlap with evaluatorModelIds, so no model judges its own answers. */
  readonly generatorModelIds: readonly KnownModelId[];
  readonly evaluatorModelIds: readonly KnownModelId[];
  readonly estimatedCostRange: string;
  /** A lucide-react icon name. */
  readonly icon: string;
}

function bundle(fields: Omit<ModelBundle, "priceRange" | "estimatedCostRange">): ModelBundle {
  return {
    ...fields,
    priceRange: BUNDLE_CATEGORY_LABELS[fields.category],
    estimatedCostRange: BUNDLE_COST_RANGES[fields.category],
  };
}

export const MODEL_BUNDLES: readonly ModelBundle[] = [
  bundle({
    id: "budget-creative",
    name: "Budget Creative",
    description:
      "Fast, low-cost models with fluent, varied writing for drafts, social posts and brainstorming at volume.",
    category: "budget",
    generatorModelIds: [
      "openai/gpt-4o-mini",
      "google/gemini-2.0-flash-001",
      "meta-llama/llama-3.3-70b-instruct",
      "mistralai/mistral-small-3.1-24b-instruct",
    ],
    evaluatorModelIds: ["anthropic/claude-3.5-haiku", "deepseek/deepseek-chat"],
    icon: "Sparkles",
  }),
  bundle({
    id: "budget-technical",
    name: "Budget Technical",
    description:
      "Affordable models that are strong at code, structured output and step-by-step reasoning, for everyday " +
      "technical tasks.",
    category: "budget",
    generatorModelIds: [
      "deepseek/deepseek-chat",
      "qwen/qwen-2.5-72b-instruct",
      "openai/gpt-4o-mini",
      "mistralai/mistral-small-3.1-24b-instruct",
    ],
    evaluatorModelIds: ["anthropic/claude-3.5-haiku", "google/gemini-2.0-flash-001"],
    icon: "Wrench",
  }),
  bundle({
    id: "standard-balanced",
    name: "Standard Balanced",
    description:
      "A well-rounded mix of providers and price points: a sensible default for comparing models on most tasks.",
    category: "standard",
    generatorModelIds: [
      "openai/gpt-4o",
      "anthropic/claude-3.5-haiku",
      "google/gemini-2.0-flash-001",
      "deepseek/deepseek-chat",
    ],
    evaluatorModelIds: ["mistralai/mistral-large", "openai/gpt-4o-mini"],
    icon: "Scale",
  }),
  bundle({
    id: "standard-creative",
    name: "Standard Creative",
    description: "Capable mid-priced writers with distinct voices, for marketing copy, storytelling and brand content.",
    category: "standard",
    generatorModelIds: [
      "openai/gpt-4o",
      "mistralai/mistral-large",
      "cohere/command-r-plus",
      "meta-llama/llama-3.3-70b-instruct",
    ],
    evaluatorModelIds: ["anthropic/claude-3.5-haiku", "google/gemini-2.0-flash-001"],
    icon: "Palette",
  }),
  bundle({
    id: "standard-analytical",
    name: "Standard Analytical",
    description:
      "Models with solid reasoning and factual precision, for analysis, summarisation and data-heavy questions.",
    category: "standard",
    generatorModelIds: [
      "openai/gpt-4o",
      "mistralai/mistral-large",
      "deepseek/deepseek-chat",
      "qwen/qwen-2.5-72b-instruct",
    ],
    evaluatorModelIds: ["anthropic/claude-3.5-haiku", "openai/gpt-4o-mini"],
    icon: "ChartBar",
  }),
  bundle({
    id: "premium-creative",
    name: "Premium Creative",
    description:
      "Frontier models with the richest writing and the best instruction following, for high-stakes creative work.",
    category: "premium",
    generatorModelIds: ["anthropic/claude-sonnet-4", "openai/gpt-4.1", "google/gemini-2.5-pro", "x-ai/grok-3"],
    evaluatorModelIds: ["openai/gpt-4o", "mistralai/mistral-large"],
    icon: "Gem",
  }),
  bundle({
    id: "premium-technical",
    name: "Premium Technical",
    description:
      "The strongest coding and long-context models, for complex implementations, reviews and technical writing.",
    category: "premium",
    generatorModelIds: ["anthropic/claude-sonnet-4", "openai/gpt-4.1", "google/gemini-2.5-pro"],
    evaluatorModelIds: ["openai/gpt-4o", "x-ai/grok-3"],
    icon: "Cpu",
  }),
  bundle({
    id: "premium-analytical",
    name: "Premium Analytical",
    description:
      "Top reasoning models for research synthesis, multi-step analysis and questions where accuracy matters most.",
    category: "premium",
    generatorModelIds: ["openai/gpt-4.1", "google/gemini-2.5-pro", "x-ai/grok-3"],
    evaluatorModelIds: ["anthropic/claude-sonnet-4", "openai/gpt-4o"],
    icon: "Microscope",
  }),
  bundle({
    id: "enterprise-flagship",
    name: "Enterprise Flagship",
    description:
      "The flagship model of each leading lab, judged by strong independent evaluators: the definitive " +
      "head-to-head.",
    category: "enterprise",
    generatorModelIds: ["anthropic/claude-opus-4", "openai/gpt-4.1", "google/gemini-2.5-pro"],
    evaluatorModelIds: ["anthropic/claude-sonnet-4", "openai/gpt-4o"],
    icon: "Crown",
  }),
  bundle({
    id: "enterprise-comprehensive",
    name: "Enterprise Comprehensive",
    description:
      "Four frontier models from four providers, judged by a three-model panel, for the most thorough and " +
      "least biased evaluation.",
    category: "enterprise",
    generatorModelIds: ["anthropic/claude-opus-4", "openai/gpt-4.1", "google/gemini-2.5-pro", "x-ai/grok-3"],
    evaluatorModelIds: ["anthropic/claude-sonnet-4", "openai/gpt-4o", "mistralai/mistral-large"],
    icon: "Building2",
  }),
];

export function modelBundleById(id: string): ModelBundle | undefined {
  return MODEL_BUNDLES.find((modelBundle) => modelBundle.id === id);
}
