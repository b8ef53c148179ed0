/**
 * The alerts a reader follows on this device (the browser side of Web Push, issue 36): the list of topics
 * (push-topics.ts) kept in localStorage beside the browser's own push subscription, and the hook the "Receber alertas"
 * buttons read. Subscribing is in push-subscribe.ts, loaded only when a button is tapped: a reader who never taps
 * one downloads none of it, and the browser asks for permission only after that tap.
 */
import { useSyncExternalStore } from "react";
import { deviceStore } from "./device-store.ts";
import { isPushTopic, PUSH_LIMITS, type PushTopic } from "./push-topics.ts";

export const FOLLOWED_TOPICS_KEY = "eef:alertas";

/** The stored list, or [] (nothing stored, storage refused, or not a list of topics). */
export function parseFollowedTopics(stored: string | null): PushTopic[] {
  if (!stored) return [];
  try {
    const parsed: unknown = JSON.parse(stored);
    return Array.isArray(parsed) ? [...new Set(parsed.filter(isPushTopic))].slice(0, PUSH_LIMITS.topicsPerBrowser) : [];
  } catch {
    return [];
  }
}

/** The list with `topic` followed (added once) or not (removed). */
export function withTopic(list: readonly PushTopic[], topic: PushTopic, follow: boolean): PushTopic[] {
  const rest = list.filter((followed) => followed !== topic);
  return follow ? [...rest, topic].slice(-PUSH_LIMITS.topicsPerBrowser) : rest;
}

export const followedTopics = deviceStore(FOLLOWED_TOPICS_KEY, parseFollowedTopics);

/** What this device follows (null before hydration: the server cannot know it, so nothing is drawn from it). */
export function useFollowedTopics(): PushTopic[] | null {
  return useSyncExternalStore(followedTopics.subscribe, followedTopics.snapshot, () => null);
}
