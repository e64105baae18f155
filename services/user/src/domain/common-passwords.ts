// Passwords of 8 characters or more that top the public lists of leaked
// passwords (shorter ones fail the length rule anyway). Compared lower-cased.
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  '12345678', '123456789', '1234567890', '12345678910', '123123123', '11111111', '00000000', '87654321',
  '987654321', '0987654321', '1q2w3e4r', '1q2w3e4r5t', '1qaz2wsx', 'qwertyuiop', 'qwerty123', 'qwerty12',
  'password', 'password1', 'password12', 'password123', 'passw0rd', 'p@ssw0rd', 'p@ssword', 'pa55word',
  'iloveyou', 'iloveyou1', 'sunshine', 'princess', 'football', 'baseball', 'superman', 'starwars',
  'trustno1', 'whatever', 'welcome1', 'welcome123', 'letmein1', 'abcd1234', 'abc12345', 'abcdefgh',
  'asdfghjkl', 'zxcvbnm1', 'qazwsxedc', 'aa123456', 'a1234567', '12341234', '11223344', '12344321',
  'michelle', 'jennifer', 'computer', 'internet', 'mercedes', 'corvette', 'maverick', 'samantha',
  'charlie1', 'jordan23', 'liverpool', 'chelsea1', 'arsenal1', 'midnight', 'blink182', 'michael1',
  'changeme', 'master123', 'admin123', 'administrator', 'passpass', 'password!', 'q1w2e3r4', 'q1w2e3r4t5',
  'qwer1234', '1234qwer', 'asdf1234', 'zaq12wsx', '!qaz2wsx', 'spinroom', 'turntable', 'hangout1',
  'basketball', 'butterfly', 'pokemon1', 'fuckyou1', 'iloveyou2', 'lovely123', 'monkey123', 'dragon123',
  'shadow123', 'master12', 'qwerty1234', '123qweasd', '123456abc', '123456789a', 'a123456789', '147258369',
  '159753258', '741852963', '789456123', '123654789', '123456qwerty', 'qwertyui', 'asdfasdf', 'football1',
  'sunshine1', 'princess1', 'chocolate', 'freedom1', 'secret123', 'loveyou1', 'batman123', 'letmein123',
]);
