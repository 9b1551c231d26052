CREATE TABLE `responses` (
	`id` text PRIMARY KEY NOT NULL,
	`owner` text NOT NULL,
	`created_at` text NOT NULL,
	`history` text NOT NULL,
	`response` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `responses_created_at` ON `responses` (`created_at`);--> statement-breakpoint
CREATE INDEX `responses_owner` ON `responses` (`owner`);