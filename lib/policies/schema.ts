import * as z from "zod";
import { settingsSchema, type Settings } from "@/lib/settings";

// A policy is the part of a conversation's settings that decides what a
// request holds (PO-1): everything but how the recorder and the proxy store and
// forward calls. It is a sub-schema of the settings, never a second one.

/** Settings fields that are not the policy's: the proxy's switch and the recorder's artifact size. */
export const RECORDING_FIELDS = ["applyPipeline", "artifactThreshold"] as const satisfies readonly (keyof Settings)[];

/** Mode, thresholds, processors in order, model and the request builder's options. */
export const policySchema = settingsSchema.omit({ applyPipeline: true, artifactThreshold: true });

export type Policy = z.infer<typeof policySchema>;
export type PolicyField = keyof Policy;

/** The policy fields, in the settings schema's order. */
export const POLICY_FIELDS = Object.keys(policySchema.shape) as PolicyField[];

/** A saved policy's name: what the lists and the diff view show. */
export const policyNameSchema = z.string({ error: "expected a name" }).trim().min(1, "a name is needed").max(120, "at most 120 characters");
