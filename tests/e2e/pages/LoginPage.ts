import { expect, type Page } from '@playwright/test'

export const DEMO_PASSWORD = 'dive-demo'
export const USERS = {
  manager: 'manager@dive.example',
  contributor: 'contributor@dive.example',
  admin: 'admin@dive.example',
} as const

/** The login form, and a shortcut that logs a demo user in and lands on /projects. */
export class LoginPage {
  readonly page: Page
  constructor(page: Page) {
    this.page = page
  }

  async open(): Promise<void> {
    await this.page.goto('/login')
  }

  async submit(email: string, password: string): Promise<void> {
    await this.page.getByLabel('Email').fill(email)
    await this.page.getByLabel('Password').fill(password)
    await this.page.getByRole('button', { name: 'Log in' }).click()
  }

  async loginAs(user: keyof typeof USERS): Promise<void> {
    await this.open()
    await this.submit(USERS[user], DEMO_PASSWORD)
    await expect(this.page).toHaveURL(/\/projects/)
  }
}
