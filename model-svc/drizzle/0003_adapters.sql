ALTER TABLE `models` ADD `adapter` text;--> statement-breakpoint
-- Facts read before adapters were known say nothing of them (a GGUF LoRA adapter was read as a model): every snapshot's files are read again at the next refresh.
UPDATE `models` SET `facts_key` = NULL;
