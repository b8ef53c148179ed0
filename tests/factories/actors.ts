import { type Actor, memberActor, systemActor } from "#app/.server/auth/permissions.server.ts";

/** The actor of the tests' own calls to the services (the site's own code: every right, no user id). */
export const testsActor: Actor = systemActor("tests");

/** An editor (every right on any story) whose id each change records. */
export const editorActor = (userId: string): Actor => memberActor({ userId, role: "editor" });
