// The public contact form (spec part 2 §2, §5): validated, rate-limited per sender, stored, and
// emailed to the admins when the deployment has an email sender. Admins read the messages here.
import { v } from "convex/values";
import { internal } from "./_generated/api";
import { env } from "./env";
import { adminQuery, fail, internalAction, internalMutation, internalQuery, publicMutation } from "./functions";
import { CONTACT_MESSAGES, CONTACT_RATE_LIMIT, validateContact } from "./lib/contact";
import { HIDDEN_INPUT_LIMITS, tooLongMessage } from "./lib/limits";
import { isEmailConfigured, sendEmail } from "./core/email";
import { rejectProblems } from "./core/validation";

/** All senders together: a ceiling that stops a flood from filling the table or the inbox. */
const GLOBAL_LIMIT_PER_WINDOW = 200;
export const ADMIN_LIST_SIZE = 100;

export const submit = publicMutation({
  args: {
    name: v.string(),
    email: v.string(),
    subject: v.string(),
    message: v.string(),
    /** The hidden honeypot: people leave it empty, form-filling bots do not. */
    website: v.optional(v.string()),
  },
  returns: v.object({ received: v.literal(true) }),
  handler: async (ctx, args) => {
    // Bounded before anything reads it, like every other field (a person never sees or fills it).
    if (args.website !== undefined && args.website.length > HIDDEN_INPUT_LIMITS.maxHoneypotLength) {
      fail("INVALID_INPUT", tooLongMessage("This field", HIDDEN_INPUT_LIMITS.maxHoneypotLength), { field: "website" });
    }
    // A filled honeypot looks accepted to the bot, and nothing is stored or sent.
    if (args.website !== undefined && args.website.trim() !== "") return { received: true as const };
    rejectProblems(validateContact(args));
    const email = args.email.trim().toLowerCase();
    const since = Date.now() - CONTACT_RATE_LIMIT.windowMs;
    const recentFromSender = await ctx.db
      .query("contactMessages")
      .withIndex("by_email", (q) => q.eq("email", email).gt("_creationTime", since))
      .take(CONTACT_RATE_LIMIT.messages);
    if (recentFromSender.length >= CONTACT_RATE_LIMIT.messages) fail("RATE_LIMITED", CONTACT_MESSAGES.rateLimited);
    const recentFromAll = await ctx.db
      .query("contactMessages")
      .withIndex("by_creation_time", (q) => q.gt("_creationTime", since))
      .take(GLOBAL_LIMIT_PER_WINDOW);
    if (recentFromAll.length >= GLOBAL_LIMIT_PER_WINDOW) {
      fail("RATE_LIMITED", "We are receiving many messages right now. Please try again in a few minutes.");
    }
    const messageId = await ctx.db.insert("contactMessages", {
      name: args.name.trim(),
      email,
      subject: args.subject,
      message: args.message.trim(),
      emailed: false,
    });
    if (isEmailConfigured() && env.adminEmails().size > 0) {
      await ctx.scheduler.runAfter(0, internal.contact.deliver, { messageId });
    }
    return { received: true as const };
  },
});

export const messageToDeliver = internalQuery({
  args: { messageId: v.id("contactMessages") },
  returns: v.union(
    v.null(),
    v.object({ name: v.string(), email: v.string(), subject: v.string(), message: v.string(), emailed: v.boolean() }),
  ),
  handler: async (ctx, { messageId }) => {
    const row = await ctx.db.get("contactMessages", messageId);
    return row
      ? { name: row.name, email: row.email, subject: row.subject, message: row.message, emailed: row.emailed }
      : null;
  },
});

export const markEmailed = internalMutation({
  args: { messageId: v.id("contactMessages") },
  returns: v.null(),
  handler: async (ctx, { messageId }) => {
    if (await ctx.db.get("contactMessages", messageId))
      await ctx.db.patch("contactMessages", messageId, { emailed: true });
    return null;
  },
});

/** Sends the message to every admin address, replying to the sender. A failure leaves it unsent. */
export const deliver = internalAction({
  args: { messageId: v.id("contactMessages") },
  returns: v.null(),
  handler: async (ctx, { messageId }) => {
    const row = await ctx.runQuery(internal.contact.messageToDeliver, { messageId });
    if (!row || row.emailed) return null;
    const text = `From: ${row.name} <${row.email}>\nSubject: ${row.subject}\n\n${row.message}`;
    try {
      for (const to of env.adminEmails()) {
        await sendEmail({ to, subject: `[ModelJury contact] ${row.subject}`, text, replyTo: row.email });
      }
    } catch (error) {
      // The message is stored either way; admins read it on the admin page.
      console.error("Contact message could not be emailed", error);
      return null;
    }
    await ctx.runMutation(internal.contact.markEmailed, { messageId });
    return null;
  },
});

export const list = adminQuery({
  args: {},
  returns: v.array(
    v.object({
      _id: v.id("contactMessages"),
      createdAt: v.number(),
      name: v.string(),
      email: v.string(),
      subject: v.string(),
      message: v.string(),
      emailed: v.boolean(),
    }),
  ),
  handler: async (ctx) => {
    const rows = await ctx.db.query("contactMessages").order("desc").take(ADMIN_LIST_SIZE);
    return rows.map((row) => ({
      _id: row._id,
      createdAt: row._creationTime,
      name: row.name,
      email: row.email,
      subject: row.subject,
      message: row.message,
      emailed: row.emailed,
    }));
  },
});
