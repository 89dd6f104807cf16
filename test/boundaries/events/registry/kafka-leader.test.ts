/**
 * The rule the group's assignment elects a registry leader by, without a broker: the leader stays
 * while it is a member, else the smallest member id leads, and members that advertise no registry
 * (another client in the group) never do. The election on a real broker: kafka-cluster.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { chooseLeader } from '../../../../src/boundaries/events/registry/kafka-leader.js';

const member = (memberId: string, leading = false) => ({
  memberId,
  info: { url: `http://${memberId}:8081`, leading },
});

describe('choosing the leader', () => {
  test('the smallest member id leads when none leads yet', () => {
    expect(chooseLeader([member('c'), member('a'), member('b')])?.memberId).toBe('a');
  });

  test('a leader that is still a member keeps leading when another joins', () => {
    expect(chooseLeader([member('c', true), member('a'), member('b')])?.memberId).toBe('c');
  });

  test('members that advertise no registry are passed over, and none at all elects nobody', () => {
    expect(chooseLeader([{ memberId: 'a', info: undefined }, member('b')])?.memberId).toBe('b');
    expect(chooseLeader([{ memberId: 'a', info: undefined }])).toBeUndefined();
  });
});
