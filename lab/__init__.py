"""The balance lab: many bot games of one or more rulesets, summed up with evidence.

The modules, in the order data flows through them:

* ``rulesets``  which rules to play: a file or name, a variant, expansions, and the
  changes a sweep makes (a parameter, a card count), loadable in any process;
* ``play``      one game played to its end, with the few facts the lab needs
  gathered on the way (plays, Nopes, draws, eliminations), as a small record;
* ``tally``     records summed as they arrive, in memory that does not grow with
  the number of games, whatever order they arrive in;
* ``runner``    the games spread over processes (or a Dask cluster, ``cluster``),
  streamed to a file as they end, resumed from it, rerun when a worker dies;
* ``stats``     intervals and tests (numpy, scipy), ``summary`` the numbers a
  designer reads, ``comparison`` what one ruleset changes against another,
  ``report`` the same as text, JSON or one HTML page with plots;
* ``sequential`` batches until every difference is settled (confidence sequences);
* ``tune``      a search of counts, parameters and variants for ``targets`` (Optuna),
  ``tune_report`` and ``tune_html`` what it found.

numpy, scipy, matplotlib and dask come with ``pip install 'kittens-engine[lab]'`` (and
``kittens-engine[cluster]``), Optuna with ``kittens-engine[tune]``; they are imported
only by the modules that use them.
"""
