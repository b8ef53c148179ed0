/**
 * The page a React Router `.data` request loads: the path without `.data`, the index's `_` segment back to its
 * slash (`/_.data` is the home's, `/x/_.data` the index of `/x/`). Any other path is itself. Shared by the page cache,
 * the body limit's route table and the CDN's surrogate keys, so all three agree on which page a request is.
 */
export function pageOfPath(path: string): string {
  if (!path.endsWith(".data")) return path;
  return path.slice(0, -".data".length).replace(/\/_$/, "/");
}
