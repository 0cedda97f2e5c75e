"""Downloads into sacrebleu's cache: checked against their MD5 sum before use, never left
half-written (corrupt, cut short, interrupted), safe when runs overlap, and without network a
message that says which file to put where (exit 2, no traceback). A local server stands for the web."""

from __future__ import annotations

import threading

import pytest
from helpers import run
from testsets_support import leftovers, sgml, tar_gz

from mtscore import testsets
from mtscore.cli import EXIT_INPUT, EXIT_OK
from mtscore.testsets import cache as cache_module

MEMBER = "wmt22-news-systems-1.1/xml/wmttest2022.de-fr.all.xml"
XML = (
    b"<?xml version='1.0' encoding='utf-8'?>\n<dataset id='t'><collection id='general'>"
    b'<doc id="d1" origlang="de" domain="news"><src lang="de"><p><seg id="1">Hallo Welt.</seg></p></src>'
    b'<ref lang="fr" translator="A"><p><seg id="1">Bonjour le monde.</seg></p></ref></doc>'
    b"</collection></dataset>\n"
)
ECHO = ["-t", "wmt22", "-l", "de-fr", "--echo", "src", "ref"]


def raw(cache):
    return cache / "wmt22" / "raw"


def saved(cache) -> list[str]:
    """What the raw folder holds, lock files aside."""
    folder = raw(cache)
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() and p.suffix != ".lock")


def test_download_then_offline(capsys, cache, server):
    server.publish("wmt22", [tar_gz({MEMBER: XML})])
    code, out, err = run(capsys, *ECHO)
    assert code == EXIT_OK and out == "Hallo Welt.\tBonjour le monde.\n"
    assert "downloading http://127.0.0.1" in err
    assert saved(cache) == [MEMBER, "wmt22.v1.1.tar.gz"] and leftovers(cache) == []
    server.stop()  # from now on every download fails: the cache is enough
    assert run(capsys, *ECHO)[:2] == (EXIT_OK, "Hallo Welt.\tBonjour le monde.\n")
    (raw(cache) / MEMBER).unlink()  # a file missing: unpacked again from the checked archive, no network
    assert run(capsys, *ECHO)[:2] == (EXIT_OK, "Hallo Welt.\tBonjour le monde.\n")
    assert server.requests == ["/wmt22/0/v1.1.tar.gz"]


def test_a_corrupt_download_is_not_kept(capsys, cache, server):
    archive = tar_gz({MEMBER: XML})
    server.publish("wmt22", [archive], md5s=["0" * 32])
    code, out, err = run(capsys, *ECHO)
    assert code == EXIT_INPUT and out == "" and "Traceback" not in err
    assert "is corrupt: MD5" in err and "expected 00000000000000000000000000000000" in err
    assert "nothing was saved" in err and str(raw(cache) / "wmt22.v1.1.tar.gz") in err
    assert saved(cache) == [] and leftovers(cache) == []
    server.publish("wmt22", [archive])  # the right sum: the next run downloads it
    assert run(capsys, *ECHO)[0] == EXIT_OK


def test_a_download_cut_short_leaves_nothing(capsys, cache, server):
    server.publish("wmt22", [tar_gz({MEMBER: XML})], cut=True)
    code, out, err = run(capsys, *ECHO)
    assert code == EXIT_INPUT and out == "" and "Traceback" not in err
    assert "cannot download test set wmt22" in err
    assert saved(cache) == [] and leftovers(cache) == []


def test_an_interrupted_download_leaves_nothing(capsys, cache, server, monkeypatch):
    """Ctrl-C while the bytes arrive: the temporary file goes, nothing is unpacked."""
    server.publish("wmt22", [tar_gz({MEMBER: XML})])

    def interrupted(test_set, download, target, out):
        out.write(b"half an archive")
        raise KeyboardInterrupt

    monkeypatch.setattr(cache_module, "_receive", interrupted)
    assert run(capsys, *ECHO)[0] == 130
    assert saved(cache) == [] and leftovers(cache) == []


def test_offline_says_which_file_to_put_where(capsys, cache, server):
    server.publish("wmt22", [tar_gz({MEMBER: XML})])
    server.stop()
    url = testsets.get("wmt22").downloads[0].url
    code, out, err = run(capsys, *ECHO)
    assert code == EXIT_INPUT and out == "" and "Traceback" not in err
    assert url in err and f"put that file at {raw(cache) / 'wmt22.v1.1.tar.gz'}" in err
    assert f"MD5 {testsets.get('wmt22').downloads[0].md5}" in err
    assert saved(cache) == [] and leftovers(cache) == []


def test_a_corrupt_archive_in_the_cache_is_reported(capsys, cache, server):
    server.publish("wmt22", [tar_gz({MEMBER: XML})])
    assert run(capsys, "--download", "wmt22", "-l", "de-fr")[0] == EXIT_OK
    (raw(cache) / MEMBER).unlink()
    (raw(cache) / "wmt22.v1.1.tar.gz").write_bytes(b"truncated")
    code, _, err = run(capsys, *ECHO)
    assert code == EXIT_INPUT and "(already in the cache) is corrupt" in err and "delete it" in err
    assert "Traceback" not in err


def test_runs_at_once_download_once(cache, server):
    """Four threads want the test set at the same moment: the lock lets one download it, the others
    find it in place; every one reads the whole file."""
    server.publish("wmt22", [tar_gz({MEMBER: XML})])
    test_set = testsets.get("wmt22")
    results, start = [], threading.Barrier(4)

    def fetch():
        start.wait()
        results.append(testsets.raw_files(test_set, (MEMBER,))[0].read_bytes())

    threads = [threading.Thread(target=fetch) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [XML] * 4
    assert server.requests == ["/wmt22/0/v1.1.tar.gz"] and leftovers(cache) == []


@pytest.mark.parametrize("member", ["../escape.xml", "/tmp/absolute.xml"])
def test_an_archive_path_leaving_the_folder_is_refused(capsys, cache, server, member):
    server.publish("wmt22", [tar_gz({member: XML, MEMBER: XML})])
    code, _, err = run(capsys, *ECHO)
    assert code == EXIT_INPUT and "a path outside its folder" in err
    assert not (cache / "wmt22" / "escape.xml").exists() and saved(cache) == []


def test_a_cache_that_cannot_be_written_is_an_input_error(capsys, tmp_path, monkeypatch, server):
    (tmp_path / "a-file").write_text("not a folder")
    monkeypatch.setenv("SACREBLEU", str(tmp_path / "a-file" / "cache"))
    server.publish("wmt22", [tar_gz({MEMBER: XML})])
    code, out, err = run(capsys, *ECHO)
    assert code == EXIT_INPUT and out == "" and "Traceback" not in err
    assert f"cannot write test set wmt22 into the cache at {tmp_path / 'a-file' / 'cache' / 'wmt22' / 'raw'}" in err


def test_an_empty_download_in_the_cache_is_downloaded_again(capsys, cache, server):
    """sacrebleu downloads a file again when it finds it empty (a download it was interrupted in): so does mtscore."""
    source = sgml([("d1", "en", ["Hello."])])
    server.publish("wmt19/google/ar", [tar_gz({"sgm/newstest2019-ende-src.en.sgm": source}), b"Hallo.\n"])
    folder = cache / "wmt19" / "google" / "ar" / "raw"
    folder.mkdir(parents=True)
    (folder / "wmt19_google_ar.wmt19-ende-ar.ref").write_bytes(b"")
    code, out, err = run(capsys, "-t", "wmt19/google/ar", "-l", "en-de", "--echo", "src", "ref")
    assert (code, out) == (EXIT_OK, "Hello.\tHallo.\n"), err
    assert len(server.requests) == 2 and leftovers(cache) == []
