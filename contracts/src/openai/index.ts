/** OpenAI-compatible response shapes of the inference runtimes, and a checker for tests. */
export { CompletionUsage, OpenAiErrorResponse } from "./common";
export { ChatCompletion, ChatCompletionChunk, ChatCompletionMessage } from "./chat";
export { TextCompletion, TextCompletionChunk } from "./completions";
export { EmbeddingList } from "./embeddings";
export { ResponseDeleted, ResponseFunctionToolCall, ResponseObject, ResponseOutputMessage, ResponseStreamEvent, ResponseStreamEvents, ResponseUsage } from "./responses";
export { ModelList, ModelObject } from "./models";
export { segmentNumberProblems, TranscriptionJson, TranscriptionSegment, TranscriptionVerboseJson } from "./transcriptions";
export { srtProblems, vttProblems, type Cue } from "./subtitles";
export { assertShape, shapeMismatches } from "./check";
export { BATCH_STATUSES_OPENAI, BatchList, BatchObject, BatchRequestOutput, FileDeleted, FileList, FileObject } from "./batches";
