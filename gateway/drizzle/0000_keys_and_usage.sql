CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`hash` text NOT NULL,
	`prefix` text NOT NULL,
	`models` text,
	`created_at` text NOT NULL,
	`expires_at` text,
	`last_used_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_name_unique` ON `api_keys` (`name`);--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash_unique` ON `api_keys` (`hash`);--> statement-breakpoint
CREATE TABLE `usage` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` text NOT NULL,
	`key_id` text,
	`caller` text NOT NULL,
	`endpoint` text NOT NULL,
	`model` text,
	`service_id` text,
	`service_name` text,
	`status` integer NOT NULL,
	`end` text NOT NULL,
	`latency_ms` real NOT NULL,
	`prompt_tokens` integer,
	`completion_tokens` integer
);
--> statement-breakpoint
CREATE INDEX `usage_at` ON `usage` (`at`);