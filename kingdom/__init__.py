"""Kingdom: Dominion cards as YAML files in an effect DSL, compiled and played.

One package, one room per job:

- `kingdom.compiler`: card files to trees to closures (the folder compiler/ of the repository);
- `kingdom.runtime`: the rules engine that plays them (runtime/);
- `kingdom.grammar`, `kingdom.cards`: the DSL's Lark grammar and the built-in cards;
- `kingdom.lab`: bots, strategies, simulation, ratings and plots;
- `kingdom.table`: a game against bots in the terminal, and its narration;
- `kingdom.print`: rule summaries, Kingdom sheets, proxies and the randomizer;
- `kingdom.scenarios`: the scenario runner and its file checks;
- `kingdom.cli`: the command line, one module per command;
"""
