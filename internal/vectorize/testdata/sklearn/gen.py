# Regenerates the scikit-learn character n-gram vocabularies that
# TestCharVocabularyMatchesScikitLearn compares against (run by hand, from
# this folder; scikit-learn 1.2.1 wrote the committed files):
#
#   python3 gen.py
#
# corpus.json is a hand-written list of texts: white space of every kind
# (runs, lone tabs and newlines, NBSP, U+3000, U+001C), upper case,
# İ and final Σ, accents and combining marks, CJK, emoji.
import json
from sklearn.feature_extraction.text import CountVectorizer

texts = json.load(open("corpus.json", encoding="utf-8"))
for analyzer, lo, hi in [("char", 1, 3), ("char_wb", 1, 3), ("char_wb", 2, 5), ("char", 3, 4)]:
    cv = CountVectorizer(analyzer=analyzer, ngram_range=(lo, hi))
    X = cv.fit_transform(texts)
    df = (X > 0).sum(axis=0).A1
    cf = X.sum(axis=0).A1
    vocab = sorted(cv.vocabulary_.items(), key=lambda kv: kv[1])
    out = [[t, int(df[i]), int(cf[i])] for t, i in vocab]
    with open(f"{analyzer}-{lo}-{hi}.json", "w", encoding="utf-8") as f:
        f.write("[\n" + ",\n".join(json.dumps(e, ensure_ascii=False) for e in out) + "\n]\n")
