package dev.polite.redis;

/**
 * A key's name among the fleet's members, and its seat among its state's keys of one name: the
 * instance's id for seat 0, then {@code id.1}, {@code id.2}...
 *
 * @param seat its seat among the keys of one name in one state
 * @param id the member it asks Redis as
 */
record Member(int seat, String id) {}
