import pg from 'pg'

/*
 * PostgreSQL LISTEN/NOTIFY between the server and worker processes: live events of running jobs
 * (worker → server, then /ws/live), stop requests (server → worker), "a job is queued"
 * (→ idle workers, so they start at once instead of at their next poll) and the frames of
 * streaming tasks (a statistics range: worker → the server's results session).
 */

export const CHANNELS = {
  live: 'dive_live',
  control: 'dive_job_control',
  ready: 'dive_jobs_ready',
  taskFrames: 'dive_task_frames',
} as const
export type Channel = (typeof CHANNELS)[keyof typeof CHANNELS]

/** PostgreSQL's limit on a NOTIFY payload is 8000 bytes. */
const MAX_PAYLOAD_BYTES = 7900

/**
 * Sends notifications over one connection, in order: two events of a job never overtake each
 * other (a pool would spread them over connections).
 */
export class Notifier {
  #url: string
  #client: pg.Client | null = null
  #tail: Promise<void> = Promise.resolve()
  #closed = false

  constructor(databaseUrl: string) {
    this.#url = databaseUrl
  }

  async #connection(): Promise<pg.Client> {
    if (this.#client) return this.#client
    const client = new pg.Client({ connectionString: this.#url, application_name: 'dive-notify' })
    client.on('error', (error) => {
      console.warn(`Notification connection lost: ${error.message}`)
      if (this.#client === client) this.#client = null
    })
    await client.connect()
    this.#client = client
    return client
  }

  /** Queues one notification; resolves once PostgreSQL took it. Never rejects (logs). */
  notify(channel: Channel, message: unknown): Promise<void> {
    const payload = JSON.stringify(message)
    if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) {
      console.warn(`Notification on ${channel} too long (${payload.length} bytes): dropped`)
      return this.#tail
    }
    this.#tail = this.#tail.then(async () => {
      if (this.#closed) return
      try {
        const client = await this.#connection()
        await client.query('select pg_notify($1, $2)', [channel, payload])
      } catch (error) {
        console.warn(`Notification on ${channel} failed: ${(error as Error).message}`)
      }
    })
    return this.#tail
  }

  async close(): Promise<void> {
    await this.#tail
    this.#closed = true
    await this.#client?.end().catch(() => undefined)
    this.#client = null
  }
}

/** Listens on channels over its own connection, reconnecting (every second) when it drops. */
export class Listener {
  #url: string
  #channels: readonly Channel[]
  #onMessage: (channel: Channel, message: unknown) => void
  #client: pg.Client | null = null
  #closed = false
  #retry: NodeJS.Timeout | undefined

  constructor(
    databaseUrl: string,
    channels: readonly Channel[],
    onMessage: (channel: Channel, message: unknown) => void,
  ) {
    this.#url = databaseUrl
    this.#channels = channels
    this.#onMessage = onMessage
  }

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.#url, application_name: 'dive-listen' })
    client.on('notification', (note) => {
      let message: unknown
      try {
        message = JSON.parse(note.payload ?? 'null')
      } catch {
        return
      }
      if ((this.#channels as readonly string[]).includes(note.channel))
        this.#onMessage(note.channel as Channel, message)
    })
    const lost = (reason: string) => {
      if (this.#client !== client || this.#closed) return
      console.warn(`Listening connection lost (${reason}); reconnecting`)
      this.#client = null
      void client.end().catch(() => undefined)
      this.#retry = setTimeout(() => void this.start().catch(() => lost('reconnect failed')), 1000)
    }
    client.on('error', (error) => lost(error.message))
    client.on('end', () => lost('ended'))
    this.#client = client
    try {
      await client.connect()
      for (const channel of this.#channels) await client.query(`LISTEN ${channel}`)
    } catch (error) {
      lost((error as Error).message)
      throw error
    }
  }

  async close(): Promise<void> {
    this.#closed = true
    clearTimeout(this.#retry)
    const client = this.#client
    this.#client = null
    await client?.end().catch(() => undefined)
  }
}
