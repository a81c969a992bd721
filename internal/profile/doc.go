// Package profile owns the corpus profile: the few numbers about a
// training corpus that nbtext's defaults follow where no single setting
// serves every kind of text (internal/train, DefaultsFor). They are
//
//   - the median document length, in characters (Unicode code points);
//   - the share of letters in scripts written without spaces between
//     words (Han, Hiragana, Katakana, Hangul, Thai, Lao, Khmer, Myanmar,
//     Tibetan), and the script of most letters;
//   - the class balance: the smallest class's share of the documents.
//
// Length and script are read from a sample, the first documents of the
// input (Sampler), because the tokenizer they choose must be fixed before
// the corpus is tokenized, which happens as it is read; the class balance
// is read from every label, once the corpus is loaded (Profile.Classes).
// A corpus whose documents come grouped (an archive, one folder per
// label) shows the sample its first labels only: the sample is large
// (SampleDocs documents, SampleBytes bytes) so that it covers several.
package profile
