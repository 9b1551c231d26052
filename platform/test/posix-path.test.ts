/** The settings' own join and resolve give node:path's results for the paths settings hold. */
import { expect, test } from "bun:test";
import { join, resolve } from "node:path";
import { joinPath, resolvePath } from "../src/config/posix-path";

test("joinPath and resolvePath agree with node:path", () => {
  const paths = ["/", "/a/b", "/a//b/", "/a/./b/../c", "/../x", "a", "a/b/..", "../a", "./a/../../b", ".", "~x/y", "/tmp/svc home/.svc", "a/"];
  for (const path of paths) expect(resolvePath(path)).toBe(resolve(path));
  for (const [a, b] of [["/home/u", ".svc"], ["/home/u/", "x/y"], ["/", "a"], ["a", "../b"], ["/a", "../../b"], ["/h", ""], ["/h", "data", "profile-svc"]]) {
    expect(joinPath(a, b)).toBe(join(a, b).replace(/(.)\/$/, "$1"));
  }
});
