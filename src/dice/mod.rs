//! Dice notation in, parsed expressions, seeded rolls and exact distributions out.
