import type { KeyBackup } from '../src/index.ts';

/**
 * A key backup made by an earlier version of Veil, whose passphrase unlock is PBKDF2-SHA256 (4,000,000
 * iterations): what the server still holds for accounts that have not unlocked with their passphrase since.
 * Its secrets are written here on purpose; the key inside protects nothing.
 */
export const pbkdf2KeyBackup: { recoveryKey: string; passphrase: string; backup: KeyBackup } = {
  recoveryKey: 'SB62-Q6HM-0AKJ-JFSM-KHHE-6FQ1-WT7A-7Y9G',
  passphrase: 'an older passphrase, stretched with PBKDF2',
  backup: {
    version: 2,
    publicKey:
      'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAr7qLLZ3PZ7HnOxSxvxhAilcbcY0OxuNViFmSvdwZK9zK1HNoXtOY7S4iW5Muty+70Z41df8kfzRtv5wjQ7b7wvaLKdv4L+d2bwzgCWuJDr4U98L3oUP29yHub58LBbIA9c6ZRTj3ERRbckw97blo8Vsdmue2D/n6anUsYtX7x2o/r2PwetaQtErdV1B03/9A+Bt5LTXbNZEv1l8h/LtQwoC9AgncbpbgqsVubxyAa914V6to+5SxU7lfOiOEF10PAZi6fHX9y4wfgJj11OggbucIYmKec/ea735udVME9t6Bq4SpUIKMzGY3yaWslda0HulEpQCFvLjX3boyRukcrQIDAQAB',
    privateKey: {
      iv: 'bgpTOicG7BwFb7aJ',
      ciphertext:
        'dLqGF8xTEZrCI46cVzBE1dqQ+fhXZHuwoniG2zZanLKNadCeUAoQMEo0bHGTegHNvFaUeMqhbzxVe2Gk5h2O2GddG//C2lFpIUa62yCw+zjaU1eS8kzITUJTu06PvCkzo2+7U4EJf4sUVhw75vl34Ot3oswHKByjLH94LmIEbOy/DnTzr1cBWuF2VqIqQ6YWSjAtn7v5rzrJqbiUqkVVQhqslzvfFdQa4kMT+CEaK6Ut81EuxVAQdEWX3yO8Ix0p7lTHlzX896IKKwkNE5FRrDXLjhbpFP27LmU4+7aqEcrU5MBr3FiqWcEVA/2N29i53p30hIYfudeWlEr1DsGq+KHvFVsuf7dLcx0+vcoiDUSZQRpvHwsDsgb0yyXdiUWOuXexZwCQc5Hf+z/xUseiCZyX3VtF2SzEDGacEqOcjAd4rj/4+dwTgqQH/GOh5/HUTKLlapB4iYV+Kl3p8Y6Z8gxTGwnPPtgh1RJJ3scrRHf+QxbS3zM23Go5rmV/djglfFKOuWqPLCCeC3H2TUXuaHR/AAvJ+cH4I1SSL3Z4F5nRrd0oBtUNUI5HcR65Q4TuSpLW7eDxNLWJ++nIfzx5j1FfFi0TV5+4tkrEV6Poq8chBEcOI0A0/vvkdftipIxZMxnjawWEfBXeVAJ0WEiJ1AXAEx/higeMWBuOWbccpRWNEYgKUekDnNovjU+dHFr0LDFlj1LWTupW26kL/WzqGBhJDXlJzPtHKdKcfjZAvg0StqCDin24ldD+5yeajVaX5qhOzI8zFqT3JPs+MNdV6M0Ccm2+uZKoIg29VU4LFvyf59tChwFxQ0Wh453m3qOeZ5A67xi+Rrd/UvE1AlhvBmjOq0sigW9c2Row8Q212PaUmcq/Pv/6zw1aXc9aA69iNd8ugyFIC4Y+39ZWlTq9uPHRdYSa/CLf2te7VlFks35g49WT6q0AYGFAKxX+ivpjIEWYaF8I8AYgK+3/+4193pTrnwqJ8uH1ZP9APWUKt0n+QONsL3xbIkU6d2ebAXyJ9KUFZpAqwUMpDPO4FmJIl3K54xT571cuuLzhfVbfzE9PtJf2n3N+pN2JGi2QPXhvuoCWSAmmXLxLCmw1oXCHShPZyxFzYQ3PSIjy3PiFEzzALr/+sVGdmK2P4mVlwe46RwiPX+tk/pae0w+vUZP/ln5E7KubYBsu6rDnkaP8/mxMAbf2ZzmOvsnFYR86QEeAxVTfdCRg6Ape+giwRDB7SeESJeGvtyB66sy92MoMeJV2wf2rm0JQ0G8/W+pJqsg2jsyEsPT3DaAi5PLnwWK858sJf3idehB8fWLsQcs6ddfU61DH5Ex9K/L27MnT95bz884vUeAefaaBJPqSvEqQarxAr1HW3X1DGqhCpJE+imy+Lhno13KZ3iF8iijWXj7OzPLOCYGBUSqNVkECNhSWrYEptc12yY+sHYk4Rk6IdBU2jtgV0dSkM4qcfqZ7EqV08k1WkhHoj4t69x4zupkN77zz7mdhEP3VorWvqMMbleAkojEwsyVm+f44aa9y59ZEgktVaj89/p8p1jg9HN/RFKBY0aGWihm2tfIbbbgz/dqmQlVmK3yDh8pRcznUNujpYdsy/guTrHZmLQorbs0iN6AavsBfmHY6MsNr/yBXMUoDMw==',
    },
    signingKey: {
      publicKey:
        'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEM3AaSKsFrZEwdVr0J/7CQLxDJIDMjqBGotayg+f5b8qLDRuW5NxQjtAuFGhm6p0invUALcu+JHoG7CPifLMZYQ==',
      privateKey: {
        iv: 'prhTmHITLoym9tBJ',
        ciphertext:
          'MQ3yxgrgmgt5kLQMoylkgWxvxu5Y3Z9Xykdd6EXL5tf4ejQueCFnorNkPl1sFXi9yap0Q7vaM7aJ351AkLqM4rgbcvlQBUGToIWSHsTKi6Mof/6cHKsvJUtmKQlWdAacbGkAJOh4FHIbQf77ZUzrj/ilY/TypllwuNEca9B0zay0pI6OVc0GHU0X4NnzKdD8ElvVBjkZiJZXpA==',
      },
    },
    unlocks: [
      {
        kind: 'recovery-key',
        kdf: {
          name: 'HKDF-SHA256',
          salt: 'aYi0syAinRnJVyWlMvmCrw==',
        },
        iv: 'GCkpUtNWQckZMUVS',
        wrappedKey: 'ZNrj0q1Kixj88WbFGJjjQ8cRYop6vIyyciUf6wR2WWQWX079FaTmTS8WiYbbkrf3',
      },
      {
        kind: 'passphrase',
        kdf: {
          name: 'PBKDF2-SHA256',
          salt: '4Evqt+6r3nSIKFhvuTkxGA==',
          iterations: 4000000,
        },
        iv: '1nTtdKt8jdSMBLii',
        wrappedKey: 'Q3ciLoTDmG9pAJSoA1Rh7oukkq2XQ3nl9mUoPeFvC3WNeXO7qE40CinV5t/uYmiE',
      },
    ],
  },
};
