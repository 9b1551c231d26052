/*
 * What bun:ffi cannot do itself with whisper.cpp's C API: pass and return structs by value. Compiled
 * when the runtime starts by Bun's built-in TinyCC (bun:ffi cc), so no compiler is needed; the
 * functions of the library come in as pointers. The structs are whisper.h's (whisper.cpp as in
 * @fugood/whisper.node 1.1.3); svc_layout_ok checks them against the library's own defaults.
 */
typedef struct { float threshold; int min_speech_duration_ms; int min_silence_duration_ms; float max_speech_duration_s; int speech_pad_ms; float samples_overlap; } vad_params;
struct context_params {
  _Bool use_gpu; _Bool flash_attn; int gpu_device;
  _Bool dtw_token_timestamps; int dtw_aheads_preset; int dtw_n_top;
  struct { unsigned long n_heads; const void *heads; } dtw_aheads;
  unsigned long dtw_mem_size;
};
struct full_params {
  int strategy; int n_threads; int n_max_text_ctx; int offset_ms; int duration_ms;
  _Bool translate; _Bool no_context; _Bool no_timestamps; _Bool single_segment; _Bool print_special;
  _Bool print_progress; _Bool print_realtime; _Bool print_timestamps; _Bool token_timestamps;
  float thold_pt; float thold_ptsum; int max_len; _Bool split_on_word; int max_tokens; _Bool debug_mode;
  int audio_ctx; _Bool tdrz_enable; const char *suppress_regex; const char *initial_prompt; _Bool carry_initial_prompt;
  const int *prompt_tokens; int prompt_n_tokens; const char *language; _Bool detect_language; _Bool suppress_blank; _Bool suppress_nst;
  float temperature; float max_initial_ts; float length_penalty; float temperature_inc; float entropy_thold; float logprob_thold; float no_speech_thold;
  struct { int best_of; } greedy;
  struct { int beam_size; float patience; } beam_search;
  void *new_segment_callback; void *new_segment_callback_user_data; void *progress_callback; void *progress_callback_user_data;
  void *encoder_begin_callback; void *encoder_begin_callback_user_data; void *abort_callback; void *abort_callback_user_data;
  void *logits_filter_callback; void *logits_filter_callback_user_data;
  const void **grammar_rules; unsigned long n_grammar_rules; unsigned long i_start_rule; float grammar_penalty;
  _Bool vad; const char *vad_model_path; vad_params vad_params;
};
typedef struct { int id; int tid; float p; float plog; float pt; float ptsum; long long t0; long long t1; long long t_dtw; float vlen; } token_data;

/* The library's defaults, read through these declarations: 1 when every checked field holds what whisper.cpp sets. */
int svc_layout_ok(struct context_params *c, struct full_params *f) {
  return c->use_gpu == 1 && c->gpu_device == 0 && c->dtw_n_top == -1 && c->dtw_aheads.n_heads == 0 && c->dtw_mem_size == 134217728UL
    && f->strategy == 0 && f->n_max_text_ctx == 16384 && f->no_context == 1 && f->print_timestamps == 1 && f->thold_pt == 0.01f
    && f->suppress_blank == 1 && f->max_initial_ts == 1.0f && f->length_penalty == -1.0f && f->temperature_inc == 0.2f
    && f->entropy_thold == 2.4f && f->logprob_thold == -1.0f && f->no_speech_thold == 0.6f && f->greedy.best_of == 5
    && f->beam_search.beam_size == -1 && f->grammar_penalty == 100.0f && f->vad == 0 && f->vad_params.threshold == 0.5f
    && f->vad_params.min_speech_duration_ms == 250 && f->vad_params.speech_pad_ms == 30 && f->vad_params.samples_overlap == 0.1f;
}

void *svc_init(void *init_fn, struct context_params *c, const char *path) {
  c->use_gpu = 0;
  c->flash_attn = 0;
  return ((void *(*)(const char *, struct context_params))init_fn)(path, *c);
}

int svc_full(void *full_fn, void *ctx, struct full_params *f, const float *samples, int n, int threads, const char *language, const char *prompt, float temperature) {
  f->n_threads = threads;
  f->language = language;
  f->initial_prompt = prompt;
  f->temperature = temperature;
  /* One greedy pass, no temperature fallback: a request's cost is predictable. */
  f->temperature_inc = 0.0f;
  f->print_progress = 0;
  f->print_timestamps = 0;
  return ((int (*)(void *, struct full_params, const float *, int))full_fn)(ctx, *f, samples, n);
}

float svc_token_logprob(void *token_data_fn, void *ctx, int segment, int token) {
  return ((token_data (*)(void *, int, int))token_data_fn)(ctx, segment, token).plog;
}
