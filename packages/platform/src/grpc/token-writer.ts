import type {
  CommitHoldRequest,
  CreditTokensRequest,
  DebitTokensRequest,
  HoldTokensRequest,
  TokenServiceClient,
  TokenTransaction,
  TokenWrite,
  TokenWriteResult,
  VoidHoldRequest,
} from '@spinroom/contracts/points/v1/tokens';
import { AppError } from '../errors.js';
import type { CallSettings, PromiseClient } from './client.js';

/** A write's answer, as its own RPC answers it (HoldTokensResponse and the others). */
export interface TokenWriteAnswer {
  transaction: TokenTransaction;
  /** The answer to an earlier request with the same idempotency key. */
  replayed: boolean;
}

/** As many items as the points service takes in one WriteTokens call (MAX_WRITES_A_CALL there). */
export const TOKEN_WRITES_A_CALL = 512;

interface Waiting {
  write: TokenWrite;
  resolve: (answer: TokenWriteAnswer) => void;
  reject: (error: unknown) => void;
}

/**
 * A service's token writes to the points service, coalesced: every write
 * asked for within one turn of the event loop goes in one WriteTokens call
 * (as TigerBeetle's clients batch their requests into one message), and each
 * caller still awaits its own answer, or the error its own unary RPC would
 * have raised (the item's status, message(s) and code, as an AppError). A
 * call that fails as a whole (unreachable, refused) fails each of its writes
 * with that error. The writes carry the service's own token (`token`), never
 * a request's caller: only services may send batches.
 */
export class TokenWriter {
  private waiting: Waiting[] = [];
  private scheduled = false;

  constructor(
    private readonly points: Pick<PromiseClient<TokenServiceClient>, 'writeTokens'>,
    private readonly token: () => Promise<string> | string,
    private readonly settings: Pick<CallSettings, 'deadlineMs'> = {},
  ) {}

  credit(request: CreditTokensRequest): Promise<TokenWriteAnswer> {
    return this.submit({ write: { $case: 'credit', value: request } });
  }

  debit(request: DebitTokensRequest): Promise<TokenWriteAnswer> {
    return this.submit({ write: { $case: 'debit', value: request } });
  }

  hold(request: HoldTokensRequest): Promise<TokenWriteAnswer> {
    return this.submit({ write: { $case: 'hold', value: request } });
  }

  commit(request: CommitHoldRequest): Promise<TokenWriteAnswer> {
    return this.submit({ write: { $case: 'commit', value: request } });
  }

  void(request: VoidHoldRequest): Promise<TokenWriteAnswer> {
    return this.submit({ write: { $case: 'void', value: request } });
  }

  private submit(write: TokenWrite): Promise<TokenWriteAnswer> {
    return new Promise<TokenWriteAnswer>((resolve, reject) => {
      this.waiting.push({ write, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      // Sent after this turn: the writes its other callbacks (and their promise continuations) ask for go along.
      setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    this.scheduled = false;
    const waiting = this.waiting;
    this.waiting = [];
    for (let i = 0; i < waiting.length; i += TOKEN_WRITES_A_CALL) void this.send(waiting.slice(i, i + TOKEN_WRITES_A_CALL));
  }

  private async send(batch: Waiting[]): Promise<void> {
    let results: TokenWriteResult[];
    try {
      const token = await this.token();
      ({ results } = await this.points.writeTokens({ writes: batch.map((item) => item.write) }, { ...this.settings, token }));
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, i) => {
      const result = results[i];
      if (result?.result?.$case === 'transaction') item.resolve({ transaction: result.result.value, replayed: result.replayed });
      else if (result?.result?.$case === 'error') item.reject(writeError(result.result.value));
      else item.reject(new AppError(502, 'Bad Gateway'));
    });
  }
}

/** An item's refusal as the AppError its own RPC would have raised (fromGrpcError's). */
function writeError(error: { status: number; messages: string[]; code: string }): AppError {
  const messages = error.messages.length === 1 ? error.messages[0]! : error.messages;
  return new AppError(error.status, messages, error.code ? { code: error.code } : {});
}
