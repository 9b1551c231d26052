import { expect, test } from "bun:test";
import { currentUserName } from "../src/process/user-name";

test("the user name comes from the environment, else from the system, never 'unknown'", () => {
  expect(currentUserName({ USER: "ada" })).toBe("ada");
  expect(currentUserName({ LOGNAME: "grace" })).toBe("grace");
  const fromSystem = currentUserName({});
  const expected = Bun.spawnSync(["id", "-un"]).stdout.toString().trim();
  expect(fromSystem).toBe(expected);
});
