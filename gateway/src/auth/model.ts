import { t } from "elysia";

export const LoginForm = t.Object({
  token: t.String({ maxLength: 4096 }),
  next: t.Optional(t.String({ maxLength: 2048 })),
});
