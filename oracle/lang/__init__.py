"""The rule language: grammar, types, standard library and compiler."""
