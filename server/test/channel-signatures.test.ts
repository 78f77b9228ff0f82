// Channel security primitives: the published HMAC-SHA256 test vector of `X-Hub-Signature-256`
// (GitHub's webhook docs), constant-time secret checks, and credentials sealed with AES-256-GCM
// under a key that can be rotated.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { SecretBox } from '../src/db/secrets.ts';
import { hubSignature, sameSecret, verifyHubSignature } from '../src/channels/signature.ts';

// https://docs.github.com/en/webhooks/using-webhooks/validating-webhook-deliveries#testing-the-webhook-payload-validation
const GITHUB_SECRET = "It's a Secret to Everybody";
const GITHUB_PAYLOAD = new TextEncoder().encode('Hello, World!');
const GITHUB_SIGNATURE = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';

describe('X-Hub-Signature-256', () => {
  it('matches the published test vector', () => {
    assert.equal(hubSignature(GITHUB_SECRET, GITHUB_PAYLOAD), GITHUB_SIGNATURE);
    assert.equal(verifyHubSignature(GITHUB_SIGNATURE, GITHUB_SECRET, GITHUB_PAYLOAD), true);
    assert.equal(verifyHubSignature(GITHUB_SIGNATURE.toUpperCase().replace('SHA256', 'sha256'), GITHUB_SECRET, GITHUB_PAYLOAD), true);
  });

  it('refuses another body, another secret, and malformed headers', () => {
    assert.equal(verifyHubSignature(GITHUB_SIGNATURE, GITHUB_SECRET, new TextEncoder().encode('Hello, World?')), false);
    assert.equal(verifyHubSignature(GITHUB_SIGNATURE, 'another secret', GITHUB_PAYLOAD), false);
    for (const header of [undefined, '', 'sha256=', GITHUB_SIGNATURE.slice(0, -2), `sha1=${GITHUB_SIGNATURE.slice(7)}`, `${GITHUB_SIGNATURE}00`, GITHUB_SIGNATURE.slice(7)]) {
      assert.equal(verifyHubSignature(header, GITHUB_SECRET, GITHUB_PAYLOAD), false, String(header));
    }
  });
});

describe('shared secrets', () => {
  it('are equal only when identical, whatever their lengths', () => {
    assert.equal(sameSecret('s3cret-token', 's3cret-token'), true);
    for (const given of [undefined, '', 's3cret-toke', 's3cret-tokenX', 'S3cret-token']) assert.equal(sameSecret(given, 's3cret-token'), false, String(given));
  });
});

describe('sealed credentials', () => {
  const keyA = randomBytes(32);
  const keyB = randomBytes(32);

  it('open only on their own row, and hold nothing readable', () => {
    const box = new SecretBox(keyA);
    const sealed = box.seal({ bot_token: '123:abc' }, 'chn_one');
    assert.ok(!JSON.stringify(sealed).includes('123:abc'));
    assert.deepEqual(box.open(sealed, 'chn_one'), { bot_token: '123:abc' });
    assert.throws(() => box.open(sealed, 'chn_two'));
    assert.throws(() => box.open({ ...sealed, data: Buffer.from('tampered').toString('base64') }, 'chn_one'));
  });

  it('rotate: a new key opens nothing the old sealed until the old is listed as previous', () => {
    const sealed = new SecretBox(keyA).seal({ app_secret: 'x' }, 'chn_one');
    assert.throws(() => new SecretBox(keyB).open(sealed, 'chn_one'), { code: 'secrets_key_missing' } as object);
    const rotated = new SecretBox(keyB, [keyA]);
    assert.equal(rotated.stale(sealed), true);
    const resealed = rotated.seal(rotated.open(sealed, 'chn_one'), 'chn_one');
    assert.equal(rotated.stale(resealed), false);
    assert.deepEqual(new SecretBox(keyB).open(resealed, 'chn_one'), { app_secret: 'x' });
  });

  it('without a key nothing is sealed: secrets_key_missing', () => {
    assert.throws(() => new SecretBox(undefined).seal({ a: 'b' }, 'chn_one'), { code: 'secrets_key_missing' } as object);
  });
});
