"""The effect language and the files it lives in: loading, schemas, grammar, checks."""
