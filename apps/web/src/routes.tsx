import { createBrowserRouter } from 'react-router';
import { App } from './App.js';
import { AuthLayout } from './auth/AuthLayout.js';
import { ForgotPasswordPage } from './auth/ForgotPasswordPage.js';
import { RegisterPage } from './auth/RegisterPage.js';
import { ResetPasswordPage } from './auth/ResetPasswordPage.js';
import { SignInPage } from './auth/SignInPage.js';
import { VerifyPage } from './auth/VerifyPage.js';

export const router = createBrowserRouter([
  { path: '/', element: <App /> },
  {
    path: '/auth',
    element: <AuthLayout />,
    children: [
      { path: 'sign-in', element: <SignInPage /> },
      { path: 'register', element: <RegisterPage /> },
      { path: 'verify', element: <VerifyPage /> },
      { path: 'forgot-password', element: <ForgotPasswordPage /> },
      { path: 'reset-password', element: <ResetPasswordPage /> },
    ],
  },
  { path: '*', element: <App /> },
]);
