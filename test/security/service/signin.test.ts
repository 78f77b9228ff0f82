// Sign-in lockout as a denial of service: ten wrong passwords from anyone used to lock the real user
// out for 15 minutes from every address, and right passwords counted too. Now failed attempts are
// limited per address (an IPv6 /64), per email and address, and per email only for devices the
// user never signed in from: a browser holding the user's device cookie is never stuck behind what
// someone else did. A right password gives its attempt back and starts its email+address over.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Service } from '../../../server/src/index.ts';
import { addressGroup } from '../../../server/src/http/client-ip.ts';
import { DEVICE_LIFETIME_SECONDS, issueDeviceToken, verifiedDevice } from '../../../server/src/users/devices.ts';
import { DashboardClient, ORIGIN, uniqueEmail } from '../../../server/test/support/dashboard.ts';
import { createTestService, sharedServices, TEST_DATABASE_URL, TEST_REDIS_URL, type SharedServices } from '../../../server/test/support/test-database.ts';

const PASSWORD = 'correct horse battery';
const WINDOW = 900;
const LIMITS = {
  perAddress: { points: 8, durationSeconds: WINDOW },
  perEmailAddress: { points: 3, durationSeconds: WINDOW },
  perAccount: { points: 4, durationSeconds: WINDOW },
};

interface Attempt {
  status: number;
  code?: string;
  /** The `aicw_device` cookie this answer set. */
  device?: string;
  setCookie: string[];
}

/** A sign-in from `ip` (the socket address the Node adapter would pass), with a device cookie or none. */
async function signInTo(service: Service, email: string, password: string, ip: string, device?: string): Promise<Attempt> {
    const headers = new Headers({ origin: ORIGIN, 'content-type': 'application/json' });
    if (device) headers.set('cookie', `aicw_device=${device}`);
    const res = await service.fetch(
      new Request(`${ORIGIN}/dashboard/api/signin`, { method: 'POST', headers, body: JSON.stringify({ email, password }) }),
      { incoming: { socket: { remoteAddress: ip } } },
    );
    const body = (await res.json()) as { error?: { code: string } };
    const setCookie = res.headers.getSetCookie();
    const deviceCookie = setCookie.map((line) => /^aicw_device=([^;]+)/.exec(line)?.[1]).find(Boolean);
    return { status: res.status, code: body.error?.code, device: deviceCookie, setCookie };
}

describe('sign-in limits that cannot lock a user out', () => {
  let service: Service;
  let owner: string;
  const signIn = (email: string, password: string, ip: string, device?: string) => signInTo(service, email, password, ip, device);
  const newUser = async () => {
    const email = uniqueEmail('user');
    assert.equal((await new DashboardClient(service).signUp(email, PASSWORD, { account_name: 'Own' })).status, 201);
    return email;
  };

  before(async () => {
    service = await createTestService({ dashboard: { signup: 'open', signInLimits: LIMITS } });
    owner = await newUser();
  });
  after(() => service?.close());

  it('a known device signs in although someone else used up the email’s attempts', async () => {
    const email = await newUser();
    const mine = await signIn(email, PASSWORD, '198.51.100.7');
    assert.equal(mine.status, 200);
    assert.ok(mine.device, 'a successful sign-in sets the device cookie');
    const cookie = mine.setCookie.find((line) => line.startsWith('aicw_device='))!;
    assert.match(cookie, /; HttpOnly/);
    assert.match(cookie, /; SameSite=Strict/);
    assert.match(cookie, /; Path=\/dashboard\/api\/signin/);

    // an attacker, from many addresses, runs the email's budget for unknown devices dry
    const attacks: Attempt[] = [];
    for (let i = 0; i < LIMITS.perAccount.points + 2; i++) attacks.push(await signIn(email, 'wrong password!', `203.0.113.${i + 1}`));
    assert.deepEqual(attacks.slice(0, LIMITS.perAccount.points).map((a) => a.code), Array(LIMITS.perAccount.points).fill('invalid_credentials'));
    assert.equal(attacks.at(-1)!.status, 429);
    assert.equal(attacks.at(-1)!.code, 'rate_limited');

    // the user's own browser is not stuck behind it, from home or from anywhere else
    assert.equal((await signIn(email, PASSWORD, '198.51.100.7', mine.device)).status, 200);
    assert.equal((await signIn(email, PASSWORD, '192.0.2.99', mine.device)).status, 200);
    // a browser the user never signed in from waits: OWASP's trade-off for unknown devices
    assert.equal((await signIn(email, PASSWORD, '198.51.100.7')).status, 429);
  });

  it('does not count right passwords, on any limit', async () => {
    const email = await newUser();
    let device: string | undefined;
    for (let i = 0; i < LIMITS.perAddress.points + 2; i++) {
      const attempt = await signIn(email, PASSWORD, '198.51.100.20');
      assert.equal(attempt.status, 200, `sign-in ${i + 1}`);
      device = attempt.device;
    }
    for (let i = 0; i < LIMITS.perAddress.points + 2; i++) {
      assert.equal((await signIn(email, PASSWORD, '198.51.100.20', device)).status, 200, `with the device cookie, sign-in ${i + 1}`);
    }
  });

  it('a right password starts the email and address count over; wrong ones from one address stop at its limit', async () => {
    const email = await newUser();
    const ip = '198.51.100.30';
    const { device } = await signIn(email, PASSWORD, ip);
    // with the device cookie, only the address limits apply
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < LIMITS.perEmailAddress.points - 1; i++) assert.equal((await signIn(email, 'wrong password!', ip, device)).status, 401);
      assert.equal((await signIn(email, PASSWORD, ip, device)).status, 200, `round ${round + 1}: right after a few typos`);
    }
    for (let i = 0; i < LIMITS.perEmailAddress.points; i++) assert.equal((await signIn(email, 'wrong password!', ip, device)).status, 401);
    const locked = await signIn(email, PASSWORD, ip, device);
    assert.equal(locked.status, 429, 'too many wrong ones in a row from one address');
    // the lock is this email's at this address: the user's browser elsewhere still signs in
    assert.equal((await signIn(email, PASSWORD, '198.51.100.31')).status, 200);
  });

  it('counts an IPv6 client per /64, whichever of its addresses it uses', async () => {
    const tries: number[] = [];
    for (let i = 1; i <= LIMITS.perAddress.points + 1; i++) {
      tries.push((await signIn(uniqueEmail('nobody'), 'wrong password!', `2001:db8:aa:bb::${i.toString(16)}`)).status);
    }
    assert.deepEqual(tries, [...Array(LIMITS.perAddress.points).fill(401), 429]);
    assert.equal((await signIn(uniqueEmail('nobody'), 'wrong password!', '2001:db8:aa:bb:ffff:1:2:3')).status, 429);
    assert.equal((await signIn(uniqueEmail('nobody'), 'wrong password!', '2001:db8:aa:bc::1')).status, 401, 'the next /64 is another client');
    assert.equal(addressGroup('::ffff:192.0.2.1'), '192.0.2.1');
    assert.equal(addressGroup('2001:DB8:0:0:1::'), '2001:db8:0:0::/64');
  });

  it('trusts a device cookie only for its own user, untampered, unexpired and until the password changes', async () => {
    const email = await newUser();
    const other = await signIn(owner, PASSWORD, '198.51.100.40');
    assert.ok(other.device);
    // run the email's budget for unknown devices dry
    for (let i = 0; i < LIMITS.perAccount.points; i++) await signIn(email, 'wrong password!', `203.0.113.${100 + i}`);
    assert.equal((await signIn(email, PASSWORD, '198.51.100.41', other.device)).status, 429, 'another user’s device is unknown here');
    const tampered = `${other.device!.slice(0, -2)}${other.device!.endsWith('AA') ? 'BB' : 'AA'}`;
    assert.equal((await signIn(owner, PASSWORD, '198.51.100.41', tampered)).status, 200); // the owner's email is not locked
    assert.equal((await signIn(email, PASSWORD, '198.51.100.41', tampered)).status, 429);

    // a password change revokes the user's devices and gives the browser that changed it a new one
    const client = new DashboardClient(service);
    const signUp = await client.signUp(uniqueEmail('changer'), PASSWORD, { account_name: 'Changer' });
    const first = /^aicw_device=([^;]+)/.exec(signUp.setCookies.find((line) => line.startsWith('aicw_device='))!)![1]!;
    const changed = await client.call('PUT', '/dashboard/api/me/password', { body: { current_password: PASSWORD, new_password: `${PASSWORD}!` } });
    assert.equal(changed.status, 200);
    const second = /^aicw_device=([^;]+)/.exec(changed.setCookies.find((line) => line.startsWith('aicw_device='))!)![1]!;
    const userId = signUp.body.data.user.id as string;
    const key = (await service.deps.dashboard.users.deviceKey(userId))!;
    assert.equal(verifiedDevice(first, key), null, 'the sign-up’s device, signed with the old password');
    assert.ok(verifiedDevice(second, key));

    const now = Date.now();
    const token = issueDeviceToken('usr_abcdefgh12345678', 'hash-of-the-password', now);
    assert.ok(verifiedDevice(token, 'hash-of-the-password', now + (DEVICE_LIFETIME_SECONDS - 60) * 1000));
    assert.equal(verifiedDevice(token, 'hash-of-the-password', now + (DEVICE_LIFETIME_SECONDS + 60) * 1000), null, 'expired');
    assert.equal(verifiedDevice(token, 'hash-of-a-new-password', now), null, 'a password change revokes it');
  });
});

describe('sign-in limits across instances (PostgreSQL + Redis)', () => {
  const skip = TEST_DATABASE_URL && TEST_REDIS_URL ? false : 'needs AI_CHAT_TEST_DATABASE_URL and AI_CHAT_TEST_REDIS_URL';
  let shared: SharedServices | undefined;
  before(async () => {
    if (skip) return;
    shared = await sharedServices(2, { dashboard: { signup: 'open', signInLimits: LIMITS } });
  });
  after(() => shared?.close());

  it('counts attempts on every instance together, and a known device passes on each', { skip }, async () => {
    const [a, b] = shared!.instances as [Service, Service];
    const email = uniqueEmail('shared');
    assert.equal((await new DashboardClient(a).signUp(email, PASSWORD, { account_name: 'Shared' })).status, 201);
    const { device } = await signInTo(a, email, PASSWORD, '198.51.100.50');
    const statuses: number[] = [];
    for (let i = 0; i < LIMITS.perAccount.points + 1; i++) {
      statuses.push((await signInTo(i % 2 ? a : b, email, 'wrong password!', `203.0.113.${200 + i}`)).status);
    }
    assert.deepEqual(statuses, [...Array(LIMITS.perAccount.points).fill(401), 429]);
    assert.equal((await signInTo(b, email, PASSWORD, '198.51.100.51')).status, 429, 'an unknown device, on the other instance');
    assert.equal((await signInTo(b, email, PASSWORD, '198.51.100.51', device)).status, 200);
    assert.equal((await signInTo(a, email, PASSWORD, '198.51.100.51', device)).status, 200);
  });
});
