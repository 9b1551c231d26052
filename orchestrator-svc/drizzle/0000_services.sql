CREATE TABLE `service_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`service_id` text NOT NULL,
	`at` text NOT NULL,
	`from_status` text,
	`to_status` text NOT NULL,
	`reason` text,
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `service_events_service` ON `service_events` (`service_id`,`id`);--> statement-breakpoint
CREATE TABLE `services` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`task` text NOT NULL,
	`model` text NOT NULL,
	`revision` text NOT NULL,
	`profile` text NOT NULL,
	`status` text NOT NULL,
	`reason` text,
	`host` text,
	`port` integer,
	`engine` text NOT NULL,
	`runtime` text NOT NULL,
	`handle` text,
	`api_key` text,
	`spec` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `services_status` ON `services` (`status`);--> statement-breakpoint
CREATE INDEX `services_created_at` ON `services` (`created_at`);--> statement-breakpoint
CREATE INDEX `services_name` ON `services` (`name`);