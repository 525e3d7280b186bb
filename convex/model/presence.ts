// The presence table's page field: which page of the test a viewer is on.
import { v } from "convex/values";
import { PRESENCE_PAGES } from "../lib/presence";

export const presencePage = v.union(...PRESENCE_PAGES.map((page) => v.literal(page)));
