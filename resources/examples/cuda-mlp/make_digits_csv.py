"""Writes digits.csv beside this script: the 1,797 8x8 handwritten digits that ship inside
scikit-learn (load_digits reads the package's own copy; nothing is downloaded), one row per
image, 64 pixel intensities (0-16) then the label (0-9).

The CSV is committed, so the example needs neither Python nor scikit-learn; run this only to
make it again:  python3 make_digits_csv.py

Debian's python3-sklearn installs for the system's /usr/bin/python3. When another python3 (a
pyenv or venv first on PATH) runs this script and cannot import scikit-learn, it re-runs itself
with /usr/bin/python3.
"""
import csv
import os
import sys

try:
    from sklearn.datasets import load_digits
except ImportError:
    SYSTEM_PYTHON = "/usr/bin/python3"
    if os.path.exists(SYSTEM_PYTHON) and os.path.realpath(sys.executable) != os.path.realpath(
            SYSTEM_PYTHON):
        os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON] + sys.argv)
    sys.exit("make_digits_csv.py: scikit-learn is not installed "
             "(on Debian: apt-get install python3-sklearn)")


def main():
    digits = load_digits()
    target = os.path.join(os.path.dirname(os.path.abspath(__file__)), "digits.csv")
    with open(target, "w", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(list(digits.feature_names) + ["label"])
        for pixels, label in zip(digits.data, digits.target):
            writer.writerow([int(v) for v in pixels] + [int(label)])
    print(f"wrote {target}: {len(digits.target)} rows")


if __name__ == "__main__":
    main()
