"""svc from a notebook or a script: start a model, wait for it, send it requests, stop it.

Run it as it is (`python examples/notebook.py`), or open it in an editor that runs `# %%` cells
(VS Code, PyCharm, Jupytext) and go cell by cell. It needs `svc start` running and the model
registered for the default profile, e.g. with the project's tiny models:

    svc init --yes && npm run make-tiny-models -- ~/.svc/models && svc model ls --refresh

SVC_EXAMPLE_MODEL names another text-generation model.
"""

# %% Connect: the application is found as the svc CLI finds it (SVC_HOST, SVC_PORT, SVC_HOME_DIR, the token file).
import asyncio
import os

import svc

MODEL = os.environ.get("SVC_EXAMPLE_MODEL", "svc-tiny/tiny-llama-gguf")
client = svc.Svc()
print(client.info())

# %% The models the profiles can run (refresh=True rescans the model folders first).
for model in client.models(refresh=True):
    print(f"{model.repo:40} {model.revision[:12]} {model.image:20} {model.profile}")

# %% Start a service. `with` stops it when the block ends, also when a cell fails half-way.
with client.run("text-generation", MODEL, api_key="my-secret-key", time="00:30:00") as service:
    service.wait(timeout=600)  # raises ServiceFailedError with the reason if it fails to start
    print(service, "at", service.proxy_url)

    # One request; `.text` is the answer, the rest is the whole chat completion.
    answer = service.chat("Write a haiku about GPUs.", max_tokens=32, temperature=0)
    print(repr(answer.text), answer.usage)

    # A batch, one after the other (see AsyncSvc below for concurrent requests).
    names = [service.chat(f"A name for cat number {i}:", max_tokens=8).text for i in range(3)]
    print(names)

    # The same endpoint with the openai package, when it is installed.
    try:
        openai_client = service.openai()
    except svc.OpenAINotInstalledError as missing:
        print(missing)
    else:
        reply = openai_client.chat.completions.create(model=MODEL, messages=[{"role": "user", "content": "Hello"}], max_completion_tokens=16)
        print(reply.choices[0].message.content)

    print(service.logs(tail=3))
print("after the block the service is", service.status)


# %% Concurrent requests with AsyncSvc (in a notebook cell: `await chat_concurrently(8)`).
async def chat_concurrently(count: int) -> list[str]:
    async with svc.AsyncSvc() as aclient, aclient.run("text-generation", MODEL) as service:
        await service.wait(timeout=600)
        answers = await asyncio.gather(*(service.chat(f"Count to {i}.", max_tokens=8) for i in range(count)))
        return [answer.text for answer in answers]


print(asyncio.run(chat_concurrently(4)))
client.close()
