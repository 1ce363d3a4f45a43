import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chooseAuthMethod, clientSecretBasic, registrationAuthMethod } from './client-auth.js';

const as = (methods?: string[]) => ({
  issuer: 'https://a.example',
  ...(methods ? { token_endpoint_auth_methods_supported: methods } : {}),
});

describe('token endpoint authentication', () => {
  it('uses exactly a method the server lists', () => {
    assert.equal(
      chooseAuthMethod(as(['client_secret_post']), { secret: true, key: false }),
      'client_secret_post',
    );
    assert.equal(
      chooseAuthMethod(as(['client_secret_basic', 'client_secret_post']), { secret: true, key: false }),
      'client_secret_basic',
    );
    assert.equal(chooseAuthMethod(as(['none']), { secret: true, key: false }), 'none');
    assert.equal(chooseAuthMethod(as(['private_key_jwt']), { secret: false, key: true }), 'private_key_jwt');
    assert.throws(
      () => chooseAuthMethod(as(['client_secret_basic']), { secret: false, key: false }),
      /cannot do/,
    );
  });

  it('follows the registration, and RFC 8414 defaults without a list', () => {
    assert.equal(
      chooseAuthMethod(as(['none']), { secret: true, key: false }, 'client_secret_post'),
      'client_secret_post',
    );
    assert.equal(chooseAuthMethod(as(), { secret: true, key: false }), 'client_secret_basic');
    assert.equal(chooseAuthMethod(as(), { secret: false, key: false }), 'none');
  });

  it('registers as a public client when it can', () => {
    assert.equal(registrationAuthMethod(as()), 'none');
    assert.equal(registrationAuthMethod(as(['client_secret_post', 'none'])), 'none');
    assert.equal(registrationAuthMethod(as(['client_secret_post'])), 'client_secret_post');
  });

  it('client_secret_basic leaves unreserved characters alone and encodes the rest', async () => {
    const headers = new Headers();
    await clientSecretBasic('p:w d%')(as(), { client_id: 'my-client_1.x~' }, new URLSearchParams(), headers);
    const decoded = atob(headers.get('authorization')!.slice(6));
    assert.equal(decoded, 'my-client_1.x~:p%3Aw+d%25');
  });
});
