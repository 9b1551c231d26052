"""Svc() with the tiny speech model: a WAV from the service's input folder, and one uploaded from here."""

from __future__ import annotations

from conftest import SPEECH_MODEL, SPOKEN_WAV, START_TIMEOUT, App

import svc


def test_transcribe_a_file_of_the_input_folder_and_an_upload(app: App, client: svc.Svc) -> None:
    with client.run("speech-recognition", SPEECH_MODEL, input_dir=app.inputs, name="py-speech") as service:
        service.wait(timeout=START_TIMEOUT)
        assert service.record.speech_recognition == svc.SpeechRecognitionOptions(input_dir=str(app.inputs))

        plain = service.transcribe(SPOKEN_WAV, response_format="text")
        assert (plain.audio_path, plain.task, plain.segments) == (SPOKEN_WAV, "transcribe", None)
        assert isinstance(plain.text, str)

        detailed = service.transcribe(SPOKEN_WAV)
        assert detailed.text == plain.text
        assert detailed.segments is not None
        assert all(0 <= segment.start <= segment.end for segment in detailed.segments)

        uploaded = service.transcribe_file(app.inputs / SPOKEN_WAV)
        assert uploaded.text == plain.text
        assert uploaded.audio_path is None

        try:
            service.transcribe("../outside.wav")
        except svc.SvcApiError as refused:
            assert refused.status == 400
            assert "input folder" in refused.message
        else:
            raise AssertionError("a path outside the input folder was accepted")
    assert service.status == "STOPPED"
