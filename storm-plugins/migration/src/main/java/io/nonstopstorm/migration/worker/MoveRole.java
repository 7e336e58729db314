package io.nonstopstorm.migration.worker;

/** This worker's side of a move: the executor leaves it (source) or arrives (target). */
public enum MoveRole {
    SOURCE,
    TARGET
}
