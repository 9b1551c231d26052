ALTER TABLE `models` ADD `facts` text;--> statement-breakpoint
ALTER TABLE `models` ADD `facts_key` text;