import { createContext } from "react-router";

/** The client's IP address, set by the server for every request (used by sign-in rate limits). */
export const clientIpContext = createContext<string>("unknown");
