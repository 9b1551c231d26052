export { createSpeechRecognitionApp, SPEECH_RECOGNITION_PATHS } from "./app";
export { WhisperEngine, type Segment, type Transcript } from "./whisper-engine";
export { decodeWav, type Audio } from "./wav-decoder";
export { resampleTo16k } from "./resample";
