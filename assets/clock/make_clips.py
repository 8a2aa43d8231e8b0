#!/usr/bin/env python3
"""Make the clock's voice clips (assets/clock/voice-zh.wav, voice-en.wav and their index
voice-*.json) with espeak-ng. Run once from the repository root:

    python3 assets/clock/make_clips.py

Each language is one WAV file (8 kHz, 8-bit, mono: small, and every browser decodes it) holding
every clip one after the other, and a JSON index {name: [start_ms, length_ms]}; the page plays a
call as a sequence of clips (e.g. "30" + "秒"). Needs espeak-ng (Debian: apt-get install
espeak-ng) and Python 3 only.
"""
import json, os, struct, subprocess, sys, tempfile, wave

RATE = 8000
GAP_MS = 40
ZH_DIGITS = "零一二三四五六七八九"


def zh_number(n):
    if n < 10:
        return ZH_DIGITS[n]
    tens, ones = divmod(n, 10)
    return ("" if tens == 1 else ZH_DIGITS[tens]) + "十" + (ZH_DIGITS[ones] if ones else "")


EN_ONES = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
EN_TENS = "_ _ twenty thirty forty fifty sixty".split()


def en_number(n):
    if n < 20:
        return EN_ONES[n]
    tens, ones = divmod(n, 10)
    return EN_TENS[tens] + ("-" + EN_ONES[ones] if ones else "")


def clips(lang):
    num = zh_number if lang == "zh" else en_number
    out = {f"n{n}": num(n) for n in range(1, 61)}
    if lang == "zh":
        out.update({"sec": "秒", "one_minute": "一分钟", "left": "还剩", "minutes": "分钟",
                    "times": "次", "timeout": "超时", "break": "节间休息"})
    else:
        out.update({"sec": "seconds", "one_minute": "one minute", "left": "left",
                    "minutes": "minutes", "times": "periods", "timeout": "time is up",
                    "break": "section break"})
    return out


def speak(voice, text):
    with tempfile.NamedTemporaryFile(suffix=".wav") as f:
        subprocess.run(["espeak-ng", "-v", voice, "-s", "165", "-w", f.name, text], check=True)
        w = wave.open(f.name)
        rate, data = w.getframerate(), w.readframes(w.getnframes())
    samples = struct.unpack("<%dh" % (len(data) // 2), data)
    # Trim the silence espeak puts around a word.
    loud = [i for i, s in enumerate(samples) if abs(s) > 600]
    if loud:
        samples = samples[max(0, loud[0] - 80): loud[-1] + 80]
    # Down-sample by averaging (a crude low-pass), then 8-bit unsigned.
    step = rate / RATE
    out = bytearray()
    i = 0.0
    while int(i + step) <= len(samples):
        chunk = samples[int(i): int(i + step)] or (0,)
        v = sum(chunk) / len(chunk)
        out.append(max(0, min(255, int(round(v / 256)) + 128)))
        i += step
    return bytes(out)


def build(lang, voice, folder):
    pcm, index = bytearray(), {}
    for name, text in clips(lang).items():
        data = speak(voice, text)
        index[name] = [len(pcm) * 1000 // RATE, len(data) * 1000 // RATE]
        pcm += data + bytes([128]) * (RATE * GAP_MS // 1000)
    with wave.open(os.path.join(folder, f"voice-{lang}.wav"), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(1)
        w.setframerate(RATE)
        w.writeframes(bytes(pcm))
    with open(os.path.join(folder, f"voice-{lang}.json"), "w") as f:
        json.dump(index, f, ensure_ascii=False, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    build("zh", "cmn", here)
    build("en", "en-gb", here)
    sys.exit(0)
