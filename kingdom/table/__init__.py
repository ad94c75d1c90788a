"""The table: a game against bots in the terminal (saved as it goes), and its narration."""
