CREATE TABLE `batch_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`batch_id` text NOT NULL,
	`at` text NOT NULL,
	`from_status` text,
	`to_status` text NOT NULL,
	`reason` text,
	FOREIGN KEY (`batch_id`) REFERENCES `batches`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `batch_events_batch` ON `batch_events` (`batch_id`,`id`);--> statement-breakpoint
CREATE TABLE `batches` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`task` text NOT NULL,
	`model` text NOT NULL,
	`revision` text NOT NULL,
	`profile` text NOT NULL,
	`engine` text NOT NULL,
	`status` text NOT NULL,
	`reason` text,
	`handle` text,
	`allocations` integer DEFAULT 0 NOT NULL,
	`progress` text,
	`spec` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `batches_status` ON `batches` (`status`);--> statement-breakpoint
CREATE INDEX `batches_created_at` ON `batches` (`created_at`);