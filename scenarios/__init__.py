"""The Riftbound rules engine and the scenario library that replays the rulings."""
