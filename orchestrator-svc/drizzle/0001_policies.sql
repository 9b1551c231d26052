ALTER TABLE `services` ADD `idle_stop_seconds` integer;--> statement-breakpoint
ALTER TABLE `services` ADD `on_demand` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `services` ADD `start_timeout_seconds` integer DEFAULT 900 NOT NULL;--> statement-breakpoint
ALTER TABLE `services` ADD `renew_before_seconds` integer;--> statement-breakpoint
ALTER TABLE `services` ADD `last_request_at` text;--> statement-breakpoint
ALTER TABLE `services` ADD `ends_at` text;--> statement-breakpoint
ALTER TABLE `services` ADD `generation` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `services` ADD `successor` text;