"""
Image parts of a chat request (issue 43). The svc CPU runtime the stand-ins serve through reads text
only, so a chat holding `image_url` parts is answered here, as vLLM and SGLang would take it, with a
text that says what arrived: each part's place and its URL's SHA-256 and length, so a test can tell
the image reached the engine byte for byte.
"""
import hashlib
import json
import time


def image_parts(body):
    """[(place, url)] of the chat's image_url parts, in order."""
    found = []
    for i, message in enumerate(body.get("messages") or []):
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, list):
            continue
        for j, part in enumerate(content):
            if isinstance(part, dict) and part.get("type") == "image_url":
                url = (part.get("image_url") or {}).get("url", "")
                found.append((f"messages[{i}].content[{j}]", url))
    return found


def describe(parts):
    """`received 1 image part: messages[0].content[1] sha256:… (118 characters)`."""
    listed = "; ".join(f"{place} sha256:{hashlib.sha256(url.encode()).hexdigest()} ({len(url)} characters)" for place, url in parts)
    return f"received {len(parts)} image part{'s' if len(parts) != 1 else ''}: {listed}"


def image_answer(body, served, parts):
    """(content type, bytes) of the answer: a chat completion, or its stream when asked for."""
    text = describe(parts)
    created = int(time.time())
    usage = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
    if not body.get("stream"):
        answer = {"id": "chatcmpl-stand-in", "object": "chat.completion", "created": created, "model": served,
                  "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}], "usage": usage}
        return "application/json", json.dumps(answer).encode()
    chunk = lambda delta, finish: {"id": "chatcmpl-stand-in", "object": "chat.completion.chunk", "created": created, "model": served,
                                    "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    events = [chunk({"role": "assistant", "content": text}, None), chunk({}, "stop")]
    if (body.get("stream_options") or {}).get("include_usage"):
        events.append({"id": "chatcmpl-stand-in", "object": "chat.completion.chunk", "created": created, "model": served, "choices": [], "usage": usage})
    return "text/event-stream", "".join(f"data: {json.dumps(event)}\n\n" for event in events).encode() + b"data: [DONE]\n\n"
