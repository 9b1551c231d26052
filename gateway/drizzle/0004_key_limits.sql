ALTER TABLE `api_keys` ADD `requests_per_minute` integer;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `tokens_per_minute` integer;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `max_parallel` integer;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `daily_tokens` integer;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `monthly_tokens` integer;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `tier` text DEFAULT 'default' NOT NULL;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `weight` integer DEFAULT 1 NOT NULL;