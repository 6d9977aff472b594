//! The chase kits: the Call of Cthulhu-style kit ([`coc`]), the Ready/Bolt/Flow kit and its odds card
//! ([`rbf`], [`rbf_odds`]), and the Urban World, Storypath and Block by Block kits ([`small`]).

mod checklists;
mod coc;
mod rbf;
mod rbf_odds;
mod sentences;
mod small;
